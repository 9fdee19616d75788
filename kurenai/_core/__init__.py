"""kurenai's internals between the facade and the kernels: the ROUGE type
registry, the plans, batching, multi-reference modes, bootstrap."""

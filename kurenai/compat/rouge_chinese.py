"""rouge-chinese's names: ``from kurenai.compat.rouge_chinese import Rouge,
FilesRouge`` in place of ``from rouge_chinese import Rouge, FilesRouge``.

>>> Rouge().get_scores("我 爱 你", "我 爱 你")[0]["rouge-2"]["r"]
1.0
"""

from kurenai.compat._files import FilesRougeChinese as FilesRouge
from kurenai.compat._rouge import RougeChinese as Rouge

__all__ = ["FilesRouge", "Rouge"]

/* NLTK's Porter stemmer (PorterStemmer(), mode NLTK_EXTENSIONS, the stemmer
 * rouge-score and torchmetrics use), rule for rule, on a lower-case ASCII word
 * held in a char buffer: nltk/stem/porter.py is the specification, and each
 * function below names the method it follows.  The word is rewritten in place
 * (no step makes it longer than it was) and its new length returned.
 *
 * Only ASCII: kurenai/_kernels/_porter.pxd lower-cases the word and hands any
 * other text to NLTK itself.  NLTK's consonant test and measure read every
 * character that is not a, e, i, o, u (or a 'y' after a consonant) as a
 * consonant, digits and punctuation too; so does this code.
 */
#ifndef KURENAI_PORTER_H
#define KURENAI_PORTER_H

#include <Python.h>
#include <string.h>

typedef struct {
    const char *suffix;
    const char *replacement;
    int condition;
} kp_rule;

enum {
    KP_ALWAYS,      /* no condition */
    KP_MEASURE_0,   /* _has_positive_measure(stem) */
    KP_MEASURE_1,   /* _measure(stem) > 1 */
    KP_ION,         /* _measure(stem) > 1 and stem[-1] in "st" */
    KP_LOGI,        /* _has_positive_measure(word[:-3]) */
    KP_Y,           /* step 1c: len(stem) > 1 and _is_consonant(stem, -1) */
    KP_LL           /* step 5b: _measure(word[:-1]) > 1 */
};

static inline int kp_vowel(char c) {
    return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u';
}

/* _is_consonant(word, i) */
static inline int kp_consonant(const char *w, Py_ssize_t i) {
    int negate = 0;
    if (kp_vowel(w[i])) return 0;
    if (w[i] != 'y') return 1;
    while (i > 0 && w[i] == 'y') {
        negate = !negate;
        i--;
    }
    return (!kp_vowel(w[i])) != negate;
}

/* _measure(word[:n]): the "vc" pairs of its consonant flags */
static Py_ssize_t kp_measure(const char *w, Py_ssize_t n) {
    Py_ssize_t m = 0, i;
    int previous = 0, consonant;
    for (i = 0; i < n; i++) {
        if (kp_vowel(w[i])) consonant = 0;
        else if (w[i] == 'y') consonant = i == 0 ? 1 : !previous;
        else consonant = 1;
        if (consonant && i > 0 && !previous) m++;
        previous = consonant;
    }
    return m;
}

/* _contains_vowel(word[:n]) */
static int kp_has_vowel(const char *w, Py_ssize_t n) {
    Py_ssize_t i;
    int previous = 0, consonant;
    for (i = 0; i < n; i++) {
        if (kp_vowel(w[i])) consonant = 0;
        else if (w[i] == 'y') consonant = i == 0 ? 1 : !previous;
        else consonant = 1;
        if (!consonant) return 1;
        previous = consonant;
    }
    return 0;
}

static inline int kp_ends(const char *w, Py_ssize_t n, const char *suffix, Py_ssize_t k) {
    return n >= k && memcmp(w + n - k, suffix, (size_t) k) == 0;
}

/* _ends_double_consonant(word[:n]) */
static inline int kp_double(const char *w, Py_ssize_t n) {
    return n >= 2 && w[n - 1] == w[n - 2] && kp_consonant(w, n - 1);
}

/* _ends_cvc(word[:n]), with NLTK's two-letter case */
static int kp_cvc(const char *w, Py_ssize_t n) {
    if (n >= 3 && kp_consonant(w, n - 3) && !kp_consonant(w, n - 2) && kp_consonant(w, n - 1)
            && w[n - 1] != 'w' && w[n - 1] != 'x' && w[n - 1] != 'y')
        return 1;
    return n == 2 && !kp_consonant(w, 0) && kp_consonant(w, 1);
}

static int kp_holds(const char *w, Py_ssize_t n, Py_ssize_t stem, int condition) {
    switch (condition) {
    case KP_MEASURE_0: return kp_measure(w, stem) > 0;
    case KP_MEASURE_1: return kp_measure(w, stem) > 1;
    case KP_ION: return kp_measure(w, stem) > 1 && (w[stem - 1] == 's' || w[stem - 1] == 't');
    case KP_LOGI: return kp_measure(w, n - 3) > 0;
    case KP_Y: return stem > 1 && kp_consonant(w, stem - 1);
    case KP_LL: return kp_measure(w, n - 1) > 1;
    default: return 1;
    }
}

/* _apply_rule_list: the first rule whose suffix ends the word decides
 * (its condition failing leaves the word as it is). */
static Py_ssize_t kp_apply(char *w, Py_ssize_t n, const kp_rule *rules, int count) {
    int r;
    Py_ssize_t k, stem, length;
    for (r = 0; r < count; r++) {
        k = (Py_ssize_t) strlen(rules[r].suffix);
        if (!kp_ends(w, n, rules[r].suffix, k)) continue;
        stem = n - k;
        if (!kp_holds(w, n, stem, rules[r].condition)) return n;
        length = (Py_ssize_t) strlen(rules[r].replacement);
        memcpy(w + stem, rules[r].replacement, (size_t) length);
        return stem + length;
    }
    return n;
}

static const kp_rule KP_STEP1A[] = {
    {"sses", "ss", KP_ALWAYS}, {"ies", "i", KP_ALWAYS}, {"ss", "ss", KP_ALWAYS},
    {"s", "", KP_ALWAYS},
};
static const kp_rule KP_STEP1C[] = {{"y", "i", KP_Y}};
static const kp_rule KP_STEP2[] = {
    {"ational", "ate", KP_MEASURE_0}, {"tional", "tion", KP_MEASURE_0},
    {"enci", "ence", KP_MEASURE_0}, {"anci", "ance", KP_MEASURE_0},
    {"izer", "ize", KP_MEASURE_0}, {"bli", "ble", KP_MEASURE_0},
    {"alli", "al", KP_MEASURE_0}, {"entli", "ent", KP_MEASURE_0},
    {"eli", "e", KP_MEASURE_0}, {"ousli", "ous", KP_MEASURE_0},
    {"ization", "ize", KP_MEASURE_0}, {"ation", "ate", KP_MEASURE_0},
    {"ator", "ate", KP_MEASURE_0}, {"alism", "al", KP_MEASURE_0},
    {"iveness", "ive", KP_MEASURE_0}, {"fulness", "ful", KP_MEASURE_0},
    {"ousness", "ous", KP_MEASURE_0}, {"aliti", "al", KP_MEASURE_0},
    {"iviti", "ive", KP_MEASURE_0}, {"biliti", "ble", KP_MEASURE_0},
    {"fulli", "ful", KP_MEASURE_0}, {"logi", "log", KP_LOGI},
};
static const kp_rule KP_STEP3[] = {
    {"icate", "ic", KP_MEASURE_0}, {"ative", "", KP_MEASURE_0}, {"alize", "al", KP_MEASURE_0},
    {"iciti", "ic", KP_MEASURE_0}, {"ical", "ic", KP_MEASURE_0}, {"ful", "", KP_MEASURE_0},
    {"ness", "", KP_MEASURE_0},
};
static const kp_rule KP_STEP4[] = {
    {"al", "", KP_MEASURE_1}, {"ance", "", KP_MEASURE_1}, {"ence", "", KP_MEASURE_1},
    {"er", "", KP_MEASURE_1}, {"ic", "", KP_MEASURE_1}, {"able", "", KP_MEASURE_1},
    {"ible", "", KP_MEASURE_1}, {"ant", "", KP_MEASURE_1}, {"ement", "", KP_MEASURE_1},
    {"ment", "", KP_MEASURE_1}, {"ent", "", KP_MEASURE_1}, {"ion", "", KP_ION},
    {"ou", "", KP_MEASURE_1}, {"ism", "", KP_MEASURE_1}, {"ate", "", KP_MEASURE_1},
    {"iti", "", KP_MEASURE_1}, {"ous", "", KP_MEASURE_1}, {"ive", "", KP_MEASURE_1},
    {"ize", "", KP_MEASURE_1},
};
static const kp_rule KP_STEP5B[] = {{"ll", "l", KP_LL}};

#define KP_COUNT(rules) ((int) (sizeof(rules) / sizeof(rules[0])))

static Py_ssize_t kp_step1a(char *w, Py_ssize_t n) {
    if (n == 4 && kp_ends(w, n, "ies", 3)) return 3; /* "ies" -> "ie" */
    return kp_apply(w, n, KP_STEP1A, KP_COUNT(KP_STEP1A));
}

static Py_ssize_t kp_step1b(char *w, Py_ssize_t n) {
    Py_ssize_t s;
    if (kp_ends(w, n, "ied", 3)) return n == 4 ? 3 : n - 2; /* -> "ie" / "i" */
    if (kp_ends(w, n, "eed", 3)) return kp_measure(w, n - 3) > 0 ? n - 1 : n;
    if (kp_ends(w, n, "ed", 2) && kp_has_vowel(w, n - 2)) s = n - 2;
    else if (kp_ends(w, n, "ing", 3) && kp_has_vowel(w, n - 3)) s = n - 3;
    else return n;
    if (kp_ends(w, s, "at", 2) || kp_ends(w, s, "bl", 2) || kp_ends(w, s, "iz", 2)) {
        w[s] = 'e'; /* at -> ate, bl -> ble, iz -> ize */
        return s + 1;
    }
    if (kp_double(w, s)) {
        char last = w[s - 1];
        return last != 'l' && last != 's' && last != 'z' ? s - 1 : s;
    }
    if (kp_measure(w, s) == 1 && kp_cvc(w, s)) {
        w[s] = 'e';
        return s + 1;
    }
    return s;
}

static Py_ssize_t kp_step2(char *w, Py_ssize_t n) {
    if (kp_ends(w, n, "alli", 4) && kp_measure(w, n - 4) > 0)
        return kp_step2(w, n - 2); /* alli -> al, then step 2 again */
    return kp_apply(w, n, KP_STEP2, KP_COUNT(KP_STEP2));
}

static Py_ssize_t kp_step5a(const char *w, Py_ssize_t n) {
    Py_ssize_t m;
    if (!kp_ends(w, n, "e", 1)) return n;
    m = kp_measure(w, n - 1);
    if (m > 1 || (m == 1 && !kp_cvc(w, n - 1))) return n - 1;
    return n;
}

typedef struct {
    const char *word;
    const char *stem;
} kp_irregular;

/* NLTK_EXTENSIONS' pool of irregular forms */
static const kp_irregular KP_POOL[] = {
    {"sky", "sky"}, {"skies", "sky"}, {"dying", "die"}, {"lying", "lie"}, {"tying", "tie"},
    {"news", "news"}, {"innings", "inning"}, {"inning", "inning"}, {"outings", "outing"},
    {"outing", "outing"}, {"cannings", "canning"}, {"canning", "canning"}, {"howe", "howe"},
    {"proceed", "proceed"}, {"exceed", "exceed"}, {"succeed", "succeed"},
};

/* PorterStemmer.stem on the lower-case ASCII word w[:n]; w holds the stem
 * after, its length is returned. */
static Py_ssize_t kurenai_porter(char *w, Py_ssize_t n) {
    int i;
    for (i = 0; i < KP_COUNT(KP_POOL); i++) {
        Py_ssize_t k = (Py_ssize_t) strlen(KP_POOL[i].word);
        if (k == n && memcmp(w, KP_POOL[i].word, (size_t) n) == 0) {
            k = (Py_ssize_t) strlen(KP_POOL[i].stem);
            memcpy(w, KP_POOL[i].stem, (size_t) k);
            return k;
        }
    }
    if (n <= 2) return n;
    n = kp_step1a(w, n);
    n = kp_step1b(w, n);
    n = kp_apply(w, n, KP_STEP1C, 1);
    n = kp_step2(w, n);
    n = kp_apply(w, n, KP_STEP3, KP_COUNT(KP_STEP3));
    n = kp_apply(w, n, KP_STEP4, KP_COUNT(KP_STEP4));
    n = kp_step5a(w, n);
    return kp_apply(w, n, KP_STEP5B, 1);
}

#endif

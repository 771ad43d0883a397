"""Page evidence: what a page's markup and short texts say about its blocks, beyond the document model.

Class/id/role hints in markup (:mod:`.hints`), label-like blocks in many
languages (:mod:`.labels`), the headline and the byline and dateline
zones around it (:mod:`.zones`), and the word lists all of them read
(:mod:`.words`, one data module). Each rule is written here once and read
by the learned features and ``auto``'s never-body rules, by the article
fields and by training, so the evidence one of them sees is the
evidence all of them see.

Imports: :mod:`scrapy_bte.core` (the document model, the C-pass loader),
numpy and the standard library; nothing above it.
"""

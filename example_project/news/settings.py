"""Settings of the example project.

The line that matters for scrapy-bte is ``ADDONS``: the add-on extracts
the main text of every HTML response and fills ``text`` and ``bte`` (scores)
into the items the spider yields; ``BTE_METHOD`` picks the most accurate
method. The rest are polite defaults for crawling
real sites; the ``news`` spider relaxes delays and limits by itself when it
crawls the bundled offline site (file:// URLs).
"""

BOT_NAME = "news"
SPIDER_MODULES = ["news.spiders"]
NEWSPIDER_MODULE = "news.spiders"

ADDONS = {"scrapy_bte.Addon": 100}
# The default method (auto, the learned one) suits a news corpus: it drops
# the comment threads, newsletter boxes and footers that the faster hybrid
# method keeps on some of these pages. Set it to be explicit.
BTE_METHOD = "auto"
# Extract only the pages whose callback yields an item (articles, forum thread,
# topic listing, product page); the home and section pages only lead to them. The
# export is the same as with "responses": 33 extractions instead of 57. "items" is
# the default; set here to be explicit.
BTE_EXTRACT = "items"

# Politeness for http(s) crawls (robots.txt is never consulted for file:// URLs).
USER_AGENT = "scrapy-bte-example (a demo crawler of the scrapy-bte package)"
ROBOTSTXT_OBEY = True
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 4
DOWNLOAD_DELAY = 0.5
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 2.0
# Bounds for `-a start_url=...` crawls; override with -s DEPTH_LIMIT=... -s CLOSESPIDER_PAGECOUNT=...
DEPTH_LIMIT = 2
CLOSESPIDER_PAGECOUNT = 200

FEED_EXPORT_ENCODING = "utf-8"

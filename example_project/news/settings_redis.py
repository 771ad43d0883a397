"""The example project on scrapy-redis: several crawler processes, one crawl.

    cd example_project
    export SCRAPY_SETTINGS_MODULE=news.settings_redis REDIS_URL=redis://127.0.0.1:6379/0
    scrapy crawl news -O part-1.jsonl &     # as many processes, on as many
    scrapy crawl news -O part-2.jsonl &     # machines, as you like
    wait

Every process takes its requests from one queue in Redis and drops the
links any process has seen before (the dupefilter in Redis), so each page is
crawled and exported once, by one of the processes. The stats of all of them,
``bte/`` ones included, add up in one Redis hash (``news:stats``). The
scrapy-bte add-on needs nothing else: it comes from ``news.settings``.

Before starting the same crawl again, delete what the last one left
(``redis-cli del news:requests news:dupefilter news:stats``): with
``SCHEDULER_PERSIST`` the dupefilter remembers every page it has seen.
"""

import os

from news.settings import *  # noqa: F403 - the project's settings, add-on included

SCHEDULER = "scrapy_redis.scheduler.Scheduler"
DUPEFILTER_CLASS = "scrapy_redis.dupefilter.RFPDupeFilter"
STATS_CLASS = "scrapy_redis.stats.RedisStatsCollector"
# Keep the queue, the dupefilter and the stats when a process closes: without
# it the first process to finish deletes them while the others still crawl.
SCHEDULER_PERSIST = True
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
# Scrapy's LogStats reads its float start_time back through scrapy-redis 0.9,
# whose int() fails at close and logs a traceback (not scrapy-bte's stats).
LOGSTATS_INTERVAL = 0

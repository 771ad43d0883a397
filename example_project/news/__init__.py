"""Example Scrapy project for scrapy-bte (see ``news.spiders.news``)."""

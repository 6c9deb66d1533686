"""The one change the open-meteo client scripts make: the host the library talks to (its API URL is
fixed in the library), by wrapping its request method."""
from open_meteo import OpenMeteo
from yarl import URL


def point_open_meteo_at(base):
    original = OpenMeteo._request

    async def through_brolly(self, url):
        return await original(self, URL(base).with_path(url.path).with_query(url.query))

    OpenMeteo._request = through_brolly

"""The next hour's rain, from the same forecast call, with the real binary against the upstream double."""

import re
from conftest import BERLIN, LONDON, SYDNEY, weather



def test_rain_starting_soon_comes_from_the_same_forecast_call(server, double):
    status, _, doc = weather(server, *BERLIN)
    assert status == 200
    now = doc["nowcast"]
    assert re.fullmatch(r"Rain starting in about (15|20|25|30) min, for about 45 min", now["summary"]), now["summary"]
    assert len(now["slots"]) == 8
    assert now["slots"][0]["start"][-6:] in ("+01:00", "+02:00")
    assert [s["precipitation"] for s in now["slots"]][:5] == [0, 0, 0.6, 0.6, 0.6]
    # One forecast call gives the weather, yesterday and the 15-minute slots.
    assert double.calls("/v1/forecast") == 1
    assert isinstance(doc["current"]["temperatureYesterday"], (int, float))


def test_rain_stopping_and_a_dry_next_hour(server, double):
    _, _, london = weather(server, *LONDON)
    assert re.fullmatch(r"Rain stopping in about (15|20|25|30) min", london["nowcast"]["summary"]), london["nowcast"]
    _, _, sydney = weather(server, *SYDNEY)
    assert "summary" not in sydney["nowcast"]  # dry: nothing said
    assert all(s["precipitation"] == 0 for s in sydney["nowcast"]["slots"])
    _, _, inches = weather(server, *BERLIN, "&units=imperial")
    assert inches["nowcast"]["slots"][2]["precipitation"] == round(0.6 / 25.4, 4)

"""`/metrics`: Prometheus text, for loopback clients or the bearer token."""

from conftest import call



def test_metrics_are_prometheus_text_for_loopback_or_the_token(server_factory):
    s = server_factory()
    call(s.url + "/api/v1/weather?lat=52.52&lon=13.41")
    status, headers, body = call(s.url + "/metrics")
    text = body.decode()
    assert status == 200 and headers["Content-Type"].startswith("text/plain")
    for name in ["brolly_http_requests_total", "brolly_http_request_duration_seconds_bucket", "brolly_upstream_calls_total",
                 "brolly_cache_answers_total", "brolly_upstream_budget_remaining", "brolly_upstream_breaker_open",
                 "brolly_history_rows_written_total"]:
        assert name in text, name
    assert 'route="/api/v1/weather"' in text
    t = server_factory(extra_env={"BROLLY_METRICS_TOKEN": "s3cret"})
    assert call(t.url + "/metrics")[0] == 401
    assert call(t.url + "/metrics", headers={"Authorization": "Bearer wrong"})[0] == 401
    assert call(t.url + "/metrics", headers={"Authorization": "Bearer s3cret"})[0] == 200

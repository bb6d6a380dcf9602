import { RequestHistograms } from './request-histograms';

describe('RequestHistograms', () => {
  it('counts and buckets by route, method and status, cumulative in the exposition', () => {
    const histograms = new RequestHistograms([0.01, 0.1]);
    histograms.observe('/v/customers/:customerId', 'GET', 200, 0.005);
    histograms.observe('/v/customers/:customerId', 'GET', 200, 0.05);
    histograms.observe('/v/customers/:customerId', 'GET', 404, 0.2);
    histograms.observe('unmatched', 'POST', 401, 0.001);
    const text = histograms.exposition();
    const labels = 'route="/v/customers/:customerId",method="GET",status="200"';
    expect(text).toContain(`http_requests_total{${labels}} 2\n`);
    expect(text).toContain(`http_request_duration_seconds_bucket{${labels},le="0.01"} 1\n`);
    expect(text).toContain(`http_request_duration_seconds_bucket{${labels},le="0.1"} 2\n`);
    expect(text).toContain(`http_request_duration_seconds_bucket{${labels},le="+Inf"} 2\n`);
    expect(text).toContain(`http_request_duration_seconds_sum{${labels}} 0.055\n`);
    expect(text).toContain('http_requests_total{route="/v/customers/:customerId",method="GET",status="404"} 1\n');
    expect(text).toContain('http_request_duration_seconds_bucket{route="unmatched",method="POST",status="401",le="+Inf"} 1\n');
    expect(text.match(/^# TYPE /gm)).toHaveLength(2);
  });

  it('escapes label values as the text format requires', () => {
    const histograms = new RequestHistograms([1]);
    histograms.observe('a"b\\c', 'GET', 200, 0.5);
    expect(histograms.exposition()).toContain('http_requests_total{route="a\\"b\\\\c",method="GET",status="200"} 1\n');
  });
});

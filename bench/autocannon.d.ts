// The part of autocannon's API bench/load.ts uses (autocannon ships no types).
declare module "autocannon" {
  interface Histogram {
    average: number
    mean: number
    p50: number
    p99: number
    max: number
    /** For `requests`: the requests completed. */
    total: number
  }
  interface Result {
    requests: Histogram
    latency: Histogram
    errors: number
    timeouts: number
    non2xx: number
    resets: number
    statusCodeStats: Record<string, { count: number }>
    "1xx": number
    "2xx": number
    "3xx": number
    "4xx": number
    "5xx": number
  }
  interface Options {
    url: string
    connections?: number
    duration?: number
    amount?: number
    method?: string
    headers?: Record<string, string>
    body?: string
  }
  function autocannon(options: Options): Promise<Result>
  export default autocannon
}

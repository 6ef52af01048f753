// The slice of autocannon's programmatic API the HTTP benchmark uses (the package ships no
// types, and adding @types/autocannon would be a new dependency).
declare module 'autocannon' {
  /** One raw request as autocannon sends it; `setupRequest` may change any field. */
  export interface RawRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  export interface RequestSpec extends RawRequest {
    setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest;
  }

  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Stop after this many requests instead of after `duration`. */
    amount?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    requests?: RequestSpec[];
  }

  export interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: { p50: number; p99: number; average: number };
  }

  export default function autocannon(options: Options): Promise<Result>;
}

/**
 * An HTTP client that goes straight to the host and port a URL names. Deno's `fetch` sends a
 * request through the proxy that HTTP_PROXY, HTTPS_PROXY or ALL_PROXY (any case) name, loopback
 * addresses included, and the permission check looks at the URL, not at the proxy: the judge's
 * whole session state would go to the proxy and its answer would be taken as the verdict. A
 * client given its own transport (a TCP connection to exactly that host and port) reads no
 * proxy variable, so no environment can divert it.
 */

/** The host (without IPv6 brackets) and port a http(s) URL connects to. */
export function connectTarget(url: URL): { hostname: string; port: number } {
  const host = url.hostname;
  const hostname = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const port = url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  return { hostname, port };
}

/**
 * A client whose every connection is to `url`'s own host and port, in plain HTTP (the transport
 * carries no TLS: the config takes http:// URLs only); close it when done.
 */
export function directClient(url: URL): Deno.HttpClient {
  return Deno.createHttpClient({ proxy: { transport: "tcp", ...connectTarget(url) } });
}

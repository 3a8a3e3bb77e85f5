// The one place the client talks HTTP: Node 18+'s built-in fetch, typed by the generated SimPaths.
import type { SimPaths } from "./generated/sim.js";
import { SimAPIError } from "./values.js";

type Verbs<P extends keyof SimPaths> = keyof SimPaths[P] & string;
type Operation<P extends keyof SimPaths, V extends Verbs<P>> = SimPaths[P][V] extends {
  query: unknown;
  body: unknown;
  answer: unknown;
}
  ? SimPaths[P][V]
  : never;

/** The JSON answer of a route and verb, as the stand's OpenAPI document describes it. */
export type AnswerOf<P extends keyof SimPaths, V extends Verbs<P>> = Operation<P, V>["answer"];

/** One request: path parameters (`{id}`), query, JSON body, the statuses that are not an error, a timeout in ms. */
export interface Request<P extends keyof SimPaths, V extends Verbs<P>> {
  params?: Record<string, string | number>;
  query?: Operation<P, V>["query"];
  body?: Operation<P, V>["body"];
  accept?: number[];
  timeout?: number;
}

/** An answer whatever its status: the status and the parsed JSON (the text when it is not JSON). */
export interface Raw {
  status: number;
  json: unknown;
  text: string;
}

/** Extra time a request is given over the wait the stand holds it for. */
const GRACE = 10_000;

export class Http {
  readonly url: string;

  constructor(url: string) {
    this.url = url.replace(/\/+$/, "");
  }

  /** Any route: the status and the answer, never an error for a status. */
  async raw(
    verb: string,
    path: string,
    init: { query?: Record<string, unknown>; body?: unknown; rawBody?: string; timeout?: number } = {},
  ): Promise<Raw> {
    const qs = Object.entries(init.query ?? {})
      .filter(([, v]) => v !== undefined && v !== null && v !== "")
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
      .join("&");
    const url = `${this.url}${path}${qs ? "?" + qs : ""}`;
    const payload = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
    const resp = await fetch(url, {
      method: verb.toUpperCase(),
      headers: payload === undefined ? undefined : { "Content-Type": "application/json" },
      body: payload,
      signal: AbortSignal.timeout((init.timeout ?? 30_000) + GRACE),
    });
    const text = await resp.text();
    let json: unknown = text;
    try {
      json = text.trim() ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: the text
    }
    return { status: resp.status, json, text };
  }

  /** A sim route, typed by the stand's OpenAPI document; a status not in `accept` (200) throws SimAPIError. */
  async call<P extends keyof SimPaths, V extends Verbs<P>>(
    verb: V,
    path: P,
    init: Request<P, V> = {},
  ): Promise<AnswerOf<P, V>> {
    let concrete: string = path;
    for (const [name, value] of Object.entries(init.params ?? {})) {
      concrete = concrete.replace(`{${name}}`, encodeURIComponent(String(value)));
    }
    const got = await this.raw(verb, concrete, {
      query: init.query as Record<string, unknown> | undefined,
      body: init.body,
      timeout: init.timeout,
    });
    check(got, concrete, init.accept);
    return got.json as AnswerOf<P, V>;
  }
}

/** Throws SimAPIError with the stand's words unless the status is accepted. */
export function check(got: Raw, path: string, accept: number[] = [200]): void {
  if (accept.includes(got.status)) return;
  const json = got.json as { error?: unknown } | undefined;
  const message = typeof json === "object" && json && "error" in json ? String(json.error) : got.text;
  throw new SimAPIError(got.status, message.trim(), path);
}

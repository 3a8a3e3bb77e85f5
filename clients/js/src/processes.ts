// A stand started from PATH, and a bot under test as a child process: what the Vitest and Jest helpers run.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

import { TgfakeClient } from "./client.js";
import { DEFAULT_BOT_TOKEN, DEFAULT_READY_TIMEOUT } from "./values.js";

/** How long `tgfake` has to print its banner, in ms (Python's start-up on a busy machine). */
const STAND_STARTUP = 60_000;
/** The longest wait the stand holds one request for, in ms. */
const MAX_HELD = 60_000;

/** A free TCP port on the loopback (for a bot's webhook server). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A running `tgfake` command: its origin and how to stop it. */
export interface Stand {
  url: string;
  /** Everything it printed. */
  output(): string;
  stop(): Promise<void>;
}

/** Start `tgfake` from PATH on a free loopback port (`--addr 127.0.0.1:0`; the banner names the port) with the
 * scripted model (`--llm`) and `args`. `command` overrides the program (`TGFAKE_COMMAND`, e.g. "python -m tgfake"). */
export async function startStand(
  opts: { args?: string[]; command?: string; timeout?: number } = {},
): Promise<Stand> {
  const [cmd, ...pre] = (opts.command ?? process.env.TGFAKE_COMMAND ?? "tgfake").split(/\s+/).filter(Boolean);
  if (!cmd) throw new Error("no tgfake command");
  const child = spawn(cmd, [...pre, "--addr", "127.0.0.1:0", "--llm", ...(opts.args ?? [])], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${cmd} printed no banner within ${(opts.timeout ?? STAND_STARTUP) / 1000} s:\n${out}`));
    }, opts.timeout ?? STAND_STARTUP);
    const read = (chunk: string) => {
      out += chunk;
      const m = /at (http:\/\/\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.setEncoding("utf8").on("data", read);
    child.stderr?.setEncoding("utf8").on("data", (c: string) => (out += c));
    child.once("error", (e) => {
      clearTimeout(timer);
      reject(new Error(`cannot start ${cmd} (put tgfake on PATH, or set TGFAKE_URL to a running stand): ${e.message}`));
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} exited with status ${code} before serving:\n${out}`));
    });
  });
  child.unref();
  for (const s of [child.stdout, child.stderr]) (s as unknown as { unref?: () => void } | null)?.unref?.();
  return {
    url,
    output: () => out,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The environment a bot under test reads: the stand's (session's) origin, a token, the model's base URL and key. */
export function botEnvironment(url: string, opts: { token?: string; modelUrl?: string | null } = {}): Record<string, string> {
  const base = url.replace(/\/+$/, "");
  return {
    TELEGRAM_API: base,
    BOT_TOKEN: opts.token || DEFAULT_BOT_TOKEN,
    OPENAI_BASE_URL: opts.modelUrl || `${base}/v1`,
    OPENAI_API_KEY: "tgfake",
  };
}

export interface BotOptions {
  /** More environment (the stand's variables come first; these win). */
  env?: Record<string, string>;
  cwd?: string;
  /** A name for reports (default: the command). */
  name?: string;
}

/** Split a command line on spaces, keeping quoted parts together. */
function argv(command: string | string[]): string[] {
  if (Array.isArray(command)) return command;
  const out: string[] = [];
  for (const m of command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3] ?? "");
  return out;
}

/** A bot under test as a child process (its own process group), its output kept for failure reports. */
export class BotProcess {
  readonly argv: string[];
  readonly env: Record<string, string>;
  readonly name: string;
  private child: ChildProcess | undefined;
  private out = "";
  private exit: Promise<number | null> = Promise.resolve(null);
  private exitCode: number | null | undefined;

  constructor(
    command: string | string[],
    private readonly opts: BotOptions = {},
  ) {
    this.argv = argv(command);
    if (!this.argv.length) throw new Error("the bot command is empty");
    this.env = { ...(opts.env ?? {}) };
    this.name = opts.name ?? this.argv.join(" ");
  }

  /** The token the bot was given (`BOT_TOKEN` of its environment). */
  get token(): string {
    return this.env.BOT_TOKEN ?? "";
  }

  start(): this {
    const [cmd, ...args] = this.argv;
    const child = spawn(cmd!, args, {
      env: { ...process.env, ...this.env },
      cwd: this.opts.cwd,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true, // its own process group: stop() reaches what it starts
    });
    this.child = child;
    this.exitCode = undefined;
    child.stdout?.setEncoding("utf8").on("data", (c: string) => (this.out += c));
    child.stderr?.setEncoding("utf8").on("data", (c: string) => (this.out += c));
    this.exit = new Promise((resolve) => {
      child.once("error", (e) => {
        this.out += `\n(cannot start ${cmd}: ${e.message})\n`;
        this.exitCode = null;
        resolve(null);
      });
      child.once("close", (code) => {
        this.exitCode = code;
        resolve(code);
      });
    });
    return this;
  }

  /** What the bot printed (stdout and stderr). */
  output(): string {
    return this.out;
  }

  alive(): boolean {
    return this.child !== undefined && this.exitCode === undefined;
  }

  /** Until the bot has made its own first Bot API call (one with its token after outbox seq `since`), held on the
   * stand (`GET /sim/wait?token=`) while its exit is watched: a bot that exits first fails at once with its output,
   * one that makes no call fails after `timeout` ms.
   *
   * The outbox records a call once it is answered, so a bot whose first call is a long poll (node-telegram-bot-api's
   * getUpdates) shows there only when the poll returns. With `polling` (the only bot of its session), a held
   * getUpdates counts too (`GET /sim/wait?polling=1`, also held by the stand). */
  async waitReady(client: TgfakeClient, opts: { since?: number; timeout?: number; polling?: boolean } = {}): Promise<void> {
    if (!this.child) throw new Error(`the bot ${this.name} is not started`);
    const timeout = opts.timeout ?? DEFAULT_READY_TIMEOUT;
    const deadline = Date.now() + timeout;
    let settled = false;
    const held = async (ask: (ms: number) => Promise<boolean>): Promise<"ready" | "late"> => {
      while (!settled && this.alive()) {
        const remaining = Math.min(deadline - Date.now(), MAX_HELD);
        if (remaining <= 0) break;
        if (await ask(remaining)) return "ready";
      }
      return "late";
    };
    const called = held(async (ms) => {
      const calls = await client.waitCall(undefined, { timeout: ms, since: opts.since, strict: false, token: this.token });
      return calls.length > 0;
    });
    const polling = opts.polling
      ? held(async (ms) => {
          const got = await client.http.raw("GET", "/sim/wait", { query: { polling: 1, timeout: ms / 1000 }, timeout: ms });
          return got.status === 200;
        })
      : new Promise<"late">(() => {});
    const exited = this.exit.then(() => "exited" as const);
    const got = await Promise.race([called, polling, exited, Promise.all([called, polling]).then(() => "late" as const)]);
    settled = true;
    for (const pending of [called, polling]) pending.catch(() => undefined); // held waits answer at their timeout
    if (got === "ready") return;
    const why =
      this.exitCode !== undefined
        ? `exited with status ${this.exitCode}`
        : `made no Bot API call with its token ${JSON.stringify(this.token)} within ${timeout / 1000} s`;
    throw new Error(`the bot ${this.name} ${why}; its output:\n${this.out}`);
  }

  /** SIGTERM to its process group, then SIGKILL after `timeout` ms; the exit status. */
  async stop(timeout = 5_000): Promise<number | null> {
    const child = this.child;
    if (!child?.pid) return null;
    if (this.alive()) {
      const signal = (sig: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, sig);
        } catch {
          // already gone
        }
      };
      signal("SIGTERM");
      const timer = setTimeout(() => signal("SIGKILL"), timeout);
      await this.exit;
      clearTimeout(timer);
    }
    return this.exitCode ?? null;
  }
}

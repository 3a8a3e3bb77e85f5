// A node-telegram-bot-api bot, tested with Jest through the tgfake client (test/*.test.js): a counter on an inline
// keyboard, a greeting in groups, answers from an OpenAI model, and Telegram's flood control waited out.
// Environment: TELEGRAM_API, BOT_TOKEN, OPENAI_BASE_URL, OPENAI_API_KEY (startBot gives them) and, in webhook mode,
// BOT_MODE=webhook with WEBHOOK_PORT and WEBHOOK_URL (the library's own server, which reads /bot<token>).
"use strict";

process.env.NTBA_FIX_319 = "1"; // the library's documented switch to its future behaviour
const TelegramBot = require("node-telegram-bot-api");
const { OpenAI } = require("openai");

const token = process.env.BOT_TOKEN;
const webhook = process.env.BOT_MODE === "webhook";
const bot = new TelegramBot(token, {
  baseApiUrl: process.env.TELEGRAM_API,
  polling: !webhook,
  webHook: webhook ? { host: "127.0.0.1", port: Number(process.env.WEBHOOK_PORT), autoOpen: false } : false,
});
const model = new OpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY, maxRetries: 0 });
const counts = new Map();
const keyboard = { inline_keyboard: [[{ text: "Count", callback_data: "count" }]] };

// Flood control: a 429 names how long to wait (parameters.retry_after); wait that long and send again, once.
async function retrying(send) {
  try {
    return await send();
  } catch (err) {
    const body = err.response?.body;
    const wait = body?.parameters?.retry_after;
    if (body?.error_code !== 429 || wait === undefined) throw err;
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    return send();
  }
}

bot.onText(/^\/start\b/, (msg) =>
  retrying(() => bot.sendMessage(msg.chat.id, "Tap to count.", { reply_markup: keyboard })),
);

bot.on("callback_query", async (query) => {
  if (query.data !== "count") return;
  const { chat, message_id } = query.message;
  const key = `${chat.id}:${message_id}`;
  const n = (counts.get(key) ?? 0) + 1;
  counts.set(key, n);
  await bot.answerCallbackQuery(query.id, { text: `Counted ${n}` });
  await bot.editMessageText(`Count: ${n}`, { chat_id: chat.id, message_id, reply_markup: keyboard });
});

bot.onText(/^\/hello\b/, (msg) =>
  bot.sendMessage(msg.chat.id, `Hello, ${msg.chat.type === "private" ? msg.from.first_name : msg.chat.title}!`),
);

bot.on("message", async (msg) => {
  if (!msg.text || msg.text.startsWith("/")) return;
  const answer = await model.chat.completions.create({
    model: "gpt-4o-mini",
    messages: [
      { role: "system", content: "You are a weather bot." },
      { role: "user", content: msg.text },
    ],
  });
  await bot.sendMessage(msg.chat.id, answer.choices[0].message.content ?? "(no answer)");
});

bot.on("polling_error", (err) => console.error("polling_error", err.message));

async function main() {
  if (webhook) {
    await bot.openWebHook();
    await bot.setWebHook(`${process.env.WEBHOOK_URL}/bot${token}`);
  }
  const stop = () => (webhook ? bot.closeWebHook() : bot.stopPolling()).then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

// An inline bot in node-telegram-bot-api 0.x's documented shape (doc/usage.md's events, doc/api.md's
// answerInlineQuery): each inline_query is answered with articles made from its text (cache_time 0, is_personal),
// and chosen_inline_result is logged. The library's examples have no inline bot; this is its usage, not a copy.
"use strict";
const TelegramBot = require("node-telegram-bot-api");

const bot = new TelegramBot(process.env.BOT_TOKEN, { polling: true, baseApiUrl: process.env.TELEGRAM_API });

bot.on("inline_query", (query) => {
  const text = query.query || "nothing";
  const results = [
    {
      type: "article",
      id: "upper",
      title: text.toUpperCase(),
      input_message_content: { message_text: text.toUpperCase() },
      reply_markup: { inline_keyboard: [[{ text: "Again", switch_inline_query_current_chat: text }]] },
    },
    { type: "article", id: "bold", title: `Bold ${text}`, input_message_content: { message_text: `<b>${text}</b>`, parse_mode: "HTML" } },
  ];
  bot.answerInlineQuery(query.id, results, { cache_time: 0, is_personal: true });
});

bot.on("chosen_inline_result", (result) => console.log("CHOSEN " + JSON.stringify(result)));

process.on("unhandledRejection", (err) => {
  console.error("UNHANDLED", err.message);
  process.exit(1);
});
bot.on("polling_error", (err) => console.error("polling_error", err.message));
process.once("SIGTERM", () => bot.stopPolling().then(() => process.exit(0)));

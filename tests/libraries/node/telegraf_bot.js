// The library-matrix dialog as a Telegraf 4 bot: bot.launch() polling, or Telegraf's webhookCallback on node's
// http server. Environment: TELEGRAM_API (the stand's origin), BOT_TOKEN, BOT_MODE (polling or webhook) and, for a
// webhook, WEBHOOK_URL, WEBHOOK_PORT, WEBHOOK_SECRET. The dialog is tests/libraries/dialog.py's.
//
// Not launch({ webhook }) or createWebhook(): both always build an https:// URL from `domain`, and the stand
// delivers to a loopback http server (see docs/testing.md).
"use strict";

const http = require("node:http");
const { Telegraf, Markup } = require("telegraf");
const { message } = require("telegraf/filters");

const bot = new Telegraf(process.env.BOT_TOKEN, { telegram: { apiRoot: process.env.TELEGRAM_API } });

bot.start((ctx) => ctx.reply("Choose:", Markup.inlineKeyboard([Markup.button.callback("Tap me", "tap")])));

bot.action("tap", async (ctx) => {
  await ctx.answerCbQuery("Tapped");
  await ctx.editMessageText("You tapped it.");
});

bot.on(message("photo"), async (ctx) => {
  const link = await ctx.telegram.getFileLink(ctx.message.photo.at(-1).file_id);
  await ctx.replyWithPhoto({ url: link.href, filename: "photo.png" }, { caption: "Your photo back" });
});

bot.hears("fmt", (ctx) => ctx.replyWithHTML("<b>bold</b> and <i>italic</i>"));

async function main() {
  if (process.env.BOT_MODE === "webhook") {
    const secretToken = process.env.WEBHOOK_SECRET;
    const server = http.createServer(bot.webhookCallback("/hook", { secretToken }));
    await new Promise((resolve) => server.listen(Number(process.env.WEBHOOK_PORT), "127.0.0.1", resolve));
    await bot.telegram.setWebhook(process.env.WEBHOOK_URL, { secret_token: secretToken });
    const stop = () => server.close(() => process.exit(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  } else {
    process.once("SIGINT", () => bot.stop("SIGINT"));
    process.once("SIGTERM", () => bot.stop("SIGTERM"));
    await bot.launch();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

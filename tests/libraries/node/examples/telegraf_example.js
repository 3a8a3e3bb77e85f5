// Telegraf's example-bot: session, a timing logger, connected_website and passport_data events, a location on some
// texts, "Hey" with a forked "yo" and a Markdown counter, /answer (MarkdownV2), /cat (a photo Telegram fetches:
// here CAT_PHOTO, a file id the stand holds, since the stand has no network), /cat2 (a photo Telegraf streams from
// CAT_URL), /foo (Telegraf.reply's middleware) and a RegExp hears. The example sends a location on a random fifth
// of the texts; here on the texts that ask "where", so the test knows which.
"use strict";
const { Telegraf, session } = require("telegraf");

const { reply, fork } = Telegraf;
const randomPhoto = process.env.CAT_PHOTO;
const sayYoMiddleware = fork((ctx) => ctx.reply("yo"));

const bot = new Telegraf(process.env.BOT_TOKEN, { telegram: { apiRoot: process.env.TELEGRAM_API } });
bot.use(session());
bot.use((ctx, next) => {
  const start = Date.now();
  return next().then(() => {
    console.log("response time %sms", Date.now() - start);
  });
});
bot.on("connected_website", (ctx) => ctx.reply("Website connected"));
bot.on("passport_data", (ctx) => ctx.reply("Telegram passport connected"));
bot.on("text", (ctx, next) => {
  if (!ctx.message.text.includes("where")) {
    return next();
  }
  return Promise.all([ctx.replyWithLocation(Math.random() * 180 - 90, Math.random() * 180 - 90), next()]);
});
bot.hears("Hey", sayYoMiddleware, (ctx) => {
  ctx.session ??= { heyCounter: 0 };
  ctx.session.heyCounter++;
  return ctx.replyWithMarkdown(`_Hey counter:_ ${ctx.session.heyCounter}`);
});
bot.command("answer", sayYoMiddleware, (ctx) => {
  console.log("ANSWER %j", ctx.message);
  return ctx.replyWithMarkdownV2("*42*");
});
bot.command("cat", (ctx) => ctx.replyWithPhoto(randomPhoto));
bot.command("cat2", (ctx) => ctx.replyWithPhoto({ url: process.env.CAT_URL }));
bot.command("foo", reply("http://coub.com/view/9cjmt"));
bot.hears(/reverse (.+)/, (ctx) => ctx.reply(ctx.match[1].split("").reverse().join("")));
bot.launch();

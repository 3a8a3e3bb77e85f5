// Telegraf's four mini-apps examples in one bot: /link (a direct Mini App link with telegraf/format's link()),
// /inlinekb (an inline web_app button), /keyboard (a reply-keyboard web_app button), /setmenu (the chat's menu
// button opens the Mini App), and inline queries answered with no results and a web_app button.
"use strict";
const { Markup, Telegraf } = require("telegraf");
const { link } = require("telegraf/format");

const WEB_APP_URL = "https://feathers.studio/telegraf/webapp/example";
const bot = new Telegraf(process.env.BOT_TOKEN, { telegram: { apiRoot: process.env.TELEGRAM_API } });
bot.command("link", (ctx) => ctx.reply(link("Launch", "https://t.me/$botname/$appname?startapp=$command")));
bot.command("inlinekb", (ctx) =>
  ctx.reply("Launch mini app from inline keyboard!", Markup.inlineKeyboard([Markup.button.webApp("Launch", WEB_APP_URL)])),
);
bot.command("keyboard", (ctx) =>
  ctx.reply("Launch mini app from keyboard!", Markup.keyboard([Markup.button.webApp("Launch", WEB_APP_URL)]).resize()),
);
bot.command("setmenu", (ctx) => ctx.setChatMenuButton({ text: "Launch", type: "web_app", web_app: { url: WEB_APP_URL } }));
bot.on("inline_query", (ctx) => ctx.answerInlineQuery([], { button: { text: "Launch", web_app: { url: WEB_APP_URL } } }));
bot.launch();

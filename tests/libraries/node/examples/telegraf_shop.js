// Telegraf's shop-bot: /start and /buy send a flexible invoice (with a pay and a url button for /buy), shipping
// queries get two options, pre-checkout queries are accepted, and a successful payment is logged.
"use strict";
const { Telegraf, Markup } = require("telegraf");

const invoice = {
  provider_token: process.env.PROVIDER_TOKEN,
  start_parameter: "time-machine-sku",
  title: "Working Time Machine",
  description:
    "Want to visit your great-great-great-grandparents? Make a fortune at the races? Shake hands with Hammurabi and take a stroll in the Hanging Gardens? Order our Working Time Machine today!",
  currency: "usd",
  photo_url:
    "https://img.clipartfest.com/5a7f4b14461d1ab2caaa656bcee42aeb_future-me-fredo-and-pidjin-the-webcomic-time-travel-cartoon_390-240.png",
  is_flexible: true,
  prices: [
    { label: "Working Time Machine", amount: 4200 },
    { label: "Gift wrapping", amount: 1000 },
  ],
  payload: JSON.stringify({ coupon: "BLACK FRIDAY" }),
};
const shippingOptions = [
  { id: "unicorn", title: "Unicorn express", prices: [{ label: "Unicorn", amount: 2000 }] },
  { id: "slowpoke", title: "Slowpoke mail", prices: [{ label: "Slowpoke", amount: 100 }] },
];
const replyOptions = Markup.inlineKeyboard([Markup.button.pay("💸 Buy"), Markup.button.url("❤️", "http://telegraf.js.org")]);

const bot = new Telegraf(process.env.BOT_TOKEN, { telegram: { apiRoot: process.env.TELEGRAM_API } });
bot.start((ctx) => ctx.replyWithInvoice(invoice));
bot.command("buy", (ctx) => ctx.replyWithInvoice(invoice, replyOptions));
bot.on("shipping_query", (ctx) => ctx.answerShippingQuery(true, shippingOptions, undefined));
bot.on("pre_checkout_query", (ctx) => ctx.answerPreCheckoutQuery(true));
bot.on("successful_payment", (ctx) => console.log("Woohoo %j", ctx.message.successful_payment));
bot.launch();

// Telegraf's live-location-bot: /start sends a live location and moves it every second (here every
// LIVE_EVERY_MS) with editMessageLiveLocation until an edit is refused. The example passes
// (lat, lon, chat id, message id), the order of Telegraf before 4.0; 4.16.3 takes (chat id, message id,
// inline message id, lat, lon), used here unless LIVE_ARGS=example asks for the example's own order.
"use strict";
const { Telegraf } = require("telegraf");

function sendLiveLocation(ctx) {
  let lat = 42.0;
  let lon = 42.0;
  ctx.replyWithLocation(lat, lon, { live_period: 60 }).then((message) => {
    const timer = setInterval(() => {
      lat += Math.random() * 0.001;
      lon += Math.random() * 0.001;
      const args =
        process.env.LIVE_ARGS === "example"
          ? [lat, lon, message.chat.id, message.message_id]
          : [message.chat.id, message.message_id, undefined, lat, lon];
      ctx.telegram
        .editMessageLiveLocation(...args)
        .catch((err) => {
          console.log("EDIT REFUSED %s", err.description);
          clearInterval(timer);
        });
    }, Number(process.env.LIVE_EVERY_MS || 1000));
  });
}

const bot = new Telegraf(process.env.BOT_TOKEN, { telegram: { apiRoot: process.env.TELEGRAM_API } });
bot.start(sendLiveLocation);
bot.launch();

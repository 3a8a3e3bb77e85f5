"""A bot for the channel steps, on urllib: thanks people who boost its group, answers a guest summons with an
article, and approves suggested posts (declining the ones that say "spam")."""

from __future__ import annotations

import json
import os
import urllib.parse
import urllib.request
from typing import Any

API = f"{os.environ['TELEGRAM_API']}/bot{os.environ['BOT_TOKEN']}/"
KINDS = json.dumps(["message", "chat_boost", "removed_chat_boost", "guest_message"])


def call(method: str, **params: Any) -> Any:
    data = urllib.parse.urlencode({k: str(v) for k, v in params.items()}).encode()
    with urllib.request.urlopen(API + method, data=data, timeout=30) as f:
        return json.loads(f.read())["result"]


def handle(update: dict[str, Any]) -> None:
    if "chat_boost" in update:
        boost = update["chat_boost"]
        name = boost["boost"]["source"]["user"]["first_name"]
        call("sendMessage", chat_id=boost["chat"]["id"], text=f"Thanks for the boost, {name}!")
    elif "removed_chat_boost" in update:
        gone = update["removed_chat_boost"]
        call("sendMessage", chat_id=gone["chat"]["id"], text=f"{gone['source']['user']['first_name']} left us.")
    elif "guest_message" in update:
        summons = update["guest_message"]
        answer = {"message_text": f"At your service, {summons['from']['first_name']}."}
        result = {"type": "article", "id": "1", "title": "Hi", "input_message_content": answer}
        call("answerGuestQuery", guest_query_id=summons["guest_query_id"], result=json.dumps(result))
    elif "suggested_post_info" in update.get("message", {}):
        post = update["message"]
        if post["suggested_post_info"]["state"] == "pending":
            if "spam" in post.get("text", ""):
                call("declineSuggestedPost", chat_id=post["chat"]["id"], message_id=post["message_id"], comment="No.")
            else:
                call("approveSuggestedPost", chat_id=post["chat"]["id"], message_id=post["message_id"])


def main() -> None:
    offset = 0
    while True:
        for update in call("getUpdates", offset=offset, timeout=10, allowed_updates=KINDS):
            offset = update["update_id"] + 1
            handle(update)


if __name__ == "__main__":
    main()

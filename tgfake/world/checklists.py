"""Checklists in business chats: the bot sends and edits them on the owner's behalf; the owner or the customer
marks tasks done (or not done) and adds tasks, and the bot sees Telegram's service messages for it
(``checklist_tasks_done``, ``checklist_tasks_added``) as business messages.

A checklist is a message's content (:class:`~tgfake.content.Media` of kind ``checklist``, its fields the Bot API
Checklist). Changes replace its task list rather than mutate it, so updates already queued keep what they showed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.chats import StoredMessage, message_json
from tgfake.errors import SimError, bad_request
from tgfake.world import business

if TYPE_CHECKING:
    from tgfake.world.bots import Bot
    from tgfake.world.business_state import BusinessChat, Connection
    from tgfake.world.people import User
    from tgfake.world.telegram import Telegram


def edit_target(
    t: Telegram, bot: Bot, connection_id: str, chat_id_text: str, message_id: int
) -> tuple[BusinessChat, StoredMessage]:
    """editMessageChecklist through a connection: the bot's own message (:func:`business.edit_target`), which
    must be a checklist (``message can't be edited``)."""
    chat, msg = business.edit_target(t, bot, connection_id, chat_id_text, message_id)
    if msg.kind != "checklist":
        raise bad_request(errors.CANT_EDIT)
    return chat, msg


def _checklist_message(conn: Connection, chat: BusinessChat, message_id: int) -> StoredMessage:
    msg = chat.live(message_id)
    if msg is None or msg.media is None or msg.media.kind != "checklist":
        raise SimError(404, f"message {message_id} is not a live checklist of the business chat with {chat.id}")
    return msg


def mark(
    t: Telegram,
    conn: Connection,
    customer: User,
    message_id: int,
    done: list[int],
    not_done: list[int],
    *,
    by_owner: bool = False,
) -> tuple[int, int]:
    """The customer (``by_owner``: the owner) marks tasks done and not done; a ``checklist_tasks_done`` service
    message enters the chat. Returns its id and the bot's update id."""
    chat = business.business_chat(t, conn, customer)
    msg = _checklist_message(conn, chat, message_id)
    assert msg.media is not None
    checklist = msg.media.fields
    if not by_owner and not checklist.get("others_can_mark_tasks_as_done"):
        raise SimError(403, "the checklist does not let others mark tasks as done (others_can_mark_tasks_as_done)")
    ids = {task["id"] for task in checklist["tasks"]}
    unknown = sorted((set(done) | set(not_done)) - ids)
    if unknown:
        raise SimError(404, f"the checklist has no task {unknown[0]} (its tasks: {sorted(ids)})")
    if not done and not not_done:
        raise SimError(400, "mark at least one task done or not done")
    actor = conn.owner if by_owner else customer
    now = t.unix_now()
    tasks = []
    for task in checklist["tasks"]:
        task = {k: v for k, v in task.items() if k not in ("completed_by_user", "completion_date")}
        if task["id"] in done:
            task.update(completed_by_user=actor.json(), completion_date=now)
        elif task["id"] not in not_done:
            task = next(old for old in checklist["tasks"] if old["id"] == task["id"])
        tasks.append(task)
    checklist["tasks"] = tasks
    service: dict[str, Any] = {"checklist_message": message_json(chat, msg, quote=False)}
    if done:
        service["marked_as_done_task_ids"] = list(done)
    if not_done:
        service["marked_as_not_done_task_ids"] = list(not_done)
    return _service(t, conn, chat, actor, {"checklist_tasks_done": service})


def add(
    t: Telegram,
    conn: Connection,
    customer: User,
    message_id: int,
    tasks: list[dict[str, Any]],
    *,
    by_owner: bool = False,
) -> tuple[int, int]:
    """The customer (``by_owner``: the owner) adds tasks (``{"id", "text"}`` each); ``checklist_tasks_added``."""
    chat = business.business_chat(t, conn, customer)
    msg = _checklist_message(conn, chat, message_id)
    assert msg.media is not None
    checklist = msg.media.fields
    if not by_owner and not checklist.get("others_can_add_tasks"):
        raise SimError(403, "the checklist does not let others add tasks (others_can_add_tasks)")
    taken = {task["id"] for task in checklist["tasks"]}
    new = [{"id": task["id"], "text": task["text"]} for task in tasks]
    for task in new:
        if task["id"] in taken:
            raise SimError(409, f"the checklist has a task {task['id']} already")
        taken.add(task["id"])
    checklist["tasks"] = [*checklist["tasks"], *new]
    service = {"checklist_message": message_json(chat, msg, quote=False), "tasks": new}
    return _service(t, conn, chat, conn.owner if by_owner else customer, {"checklist_tasks_added": service})


def _service(
    t: Telegram, conn: Connection, chat: BusinessChat, actor: User, service: dict[str, Any]
) -> tuple[int, int]:
    msg = chat.add(
        StoredMessage(
            message_id=chat.mint_message_id(),
            date=t.unix_now(),
            sender=actor,
            service=service,
            extra={"business_connection_id": conn.id},
        )
    )
    return msg.message_id, business.push(t, conn, "business_message", chat, msg)

"""Checklists through a business connection: the bot sends and edits them as the owner, the customer marks
tasks and adds tasks, and the bot sees Telegram's service messages for it."""

from __future__ import annotations

import json
from typing import Any

from tests.conftest import Wire

ALICE, BOB = 4242, 4343
CHECKLIST = {
    "title": "<b>Order</b> 42",
    "parse_mode": "HTML",
    "tasks": [{"id": 1, "text": "Roses"}, {"id": 2, "text": "Ribbon"}],
    "others_can_mark_tasks_as_done": True,
}


async def setup(wire: Wire) -> str:
    status, got = await wire.sim("POST", "/sim/business/connect", {"user": "alice", "rights": {"can_reply": True}})
    assert status == 200
    status, _ = await wire.sim("POST", "/sim/business/message", {"owner": "alice", "customer": "bob", "text": "list?"})
    assert status == 200
    await fresh(wire)
    return str(got["connection"]["id"])


async def fresh(wire: Wire) -> list[dict[str, Any]]:
    """The updates not seen yet, confirmed (the next call starts after them)."""
    got: list[dict[str, Any]] = await wire.ok("getUpdates", timeout=0)
    if got:
        await wire.ok("getUpdates", timeout=0, offset=got[-1]["update_id"] + 1)
    return got


async def test_the_bot_sends_a_checklist_as_the_owner(wire: Wire) -> None:
    bc = await setup(wire)
    sent = await wire.ok("sendChecklist", business_connection_id=bc, chat_id=BOB, checklist=json.dumps(CHECKLIST))
    assert sent["from"]["id"] == ALICE
    assert sent["checklist"] == {
        "title": "Order 42",
        "title_entities": [{"offset": 0, "length": 5, "type": "bold"}],
        "tasks": [{"id": 1, "text": "Roses"}, {"id": 2, "text": "Ribbon"}],
        "others_can_mark_tasks_as_done": True,
    }
    assert "text" not in sent
    await wire.refused(
        "sendChecklist", 400, "Bad Request: business connection not found", chat_id=BOB, checklist=json.dumps(CHECKLIST)
    )


async def test_marking_and_adding_tasks_are_service_messages_the_bot_sees(wire: Wire) -> None:
    bc = await setup(wire)
    sent = await wire.ok("sendChecklist", business_connection_id=bc, chat_id=BOB, checklist=json.dumps(CHECKLIST))
    mid = sent["message_id"]
    status, marked = await wire.sim(
        "POST", "/sim/business/checklist/mark", {"owner": "alice", "customer": "bob", "message_id": mid, "done": [1]}
    )
    assert status == 200, marked
    status, refused = await wire.sim(
        "POST",
        "/sim/business/checklist/add",
        {"owner": "alice", "customer": "bob", "message_id": mid, "tasks": [{"id": 3, "text": "Card"}]},
    )
    assert (status, refused["error"]) == (403, "the checklist does not let others add tasks (others_can_add_tasks)")
    status, added = await wire.sim(
        "POST",
        "/sim/business/checklist/add",
        {
            "owner": "alice",
            "customer": "bob",
            "message_id": mid,
            "tasks": [{"id": 3, "text": "Card"}],
            "by_owner": True,
        },
    )
    assert status == 200, added
    done_update, added_update = [u["business_message"] for u in await fresh(wire)]
    assert done_update["business_connection_id"] == bc
    assert done_update["from"]["id"] == BOB
    done = done_update["checklist_tasks_done"]
    assert done["marked_as_done_task_ids"] == [1]
    task: dict[str, Any] = done["checklist_message"]["checklist"]["tasks"][0]
    assert (task["completed_by_user"]["id"], "completion_date" in task) == (BOB, True)
    assert added_update["from"]["id"] == ALICE
    assert added_update["checklist_tasks_added"]["tasks"] == [{"id": 3, "text": "Card"}]
    assert [t["id"] for t in added_update["checklist_tasks_added"]["checklist_message"]["checklist"]["tasks"]] == [
        1,
        2,
        3,
    ]


async def test_the_bot_edits_its_checklist_and_done_tasks_stay_done(wire: Wire) -> None:
    bc = await setup(wire)
    sent = await wire.ok("sendChecklist", business_connection_id=bc, chat_id=BOB, checklist=json.dumps(CHECKLIST))
    mid = sent["message_id"]
    await wire.sim(
        "POST", "/sim/business/checklist/mark", {"owner": "alice", "customer": "bob", "message_id": mid, "done": [2]}
    )
    edited = {"title": "Order 42", "tasks": [{"id": 2, "text": "Blue ribbon"}, {"id": 4, "text": "Vase"}]}
    got = await wire.ok(
        "editMessageChecklist", business_connection_id=bc, chat_id=BOB, message_id=mid, checklist=json.dumps(edited)
    )
    tasks = got["checklist"]["tasks"]
    assert [(t["id"], t["text"], "completion_date" in t) for t in tasks] == [
        (2, "Blue ribbon", True),
        (4, "Vase", False),
    ]
    assert "edit_date" in got
    await wire.refused(
        "editMessageChecklist",
        400,
        "Bad Request: message to edit not found",
        business_connection_id=bc,
        chat_id=BOB,
        message_id=999,
        checklist=json.dumps(edited),
    )
    await wire.refused(
        "editMessageChecklist",
        400,
        "Bad Request: message can't be edited",
        business_connection_id=bc,
        chat_id=BOB,
        message_id=1,
        checklist=json.dumps(edited),
    )

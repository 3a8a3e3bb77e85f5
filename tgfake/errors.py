"""Every Telegram error description the stand answers with, and the two exception types that carry them.

Descriptions are copied from what Telegram answers (see docs/bot-api.md); keep them word for word.
"""

from __future__ import annotations

# --- generic -------------------------------------------------------------------------------------------------
NOT_FOUND = "Not Found"
METHOD_NOT_FOUND = "Not Found: method not found"
UNAUTHORIZED = "Unauthorized"
INVALID_TOKEN = "Unauthorized: invalid token specified"  # ClientManager::send: a token of the wrong shape
UNALLOWED_TOKEN = "Misdirected Request: unallowed token specified"  # ClientManager::send, 421: no integer bot id
BAD_REQUEST = "Bad Request"
FORBIDDEN_BLOCKED = "Forbidden: bot was blocked by the user"
FORBIDDEN_CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"  # the server's, for a stranger
BAD_GATEWAY = "Bad Gateway"
INTERNAL = "Internal Server Error"
TOO_MANY = "Too Many Requests"
STRINGS_NOT_UTF8 = "Bad Request: strings must be encoded in UTF-8"  # td's check of every string it uses
HEADERS_TOO_LARGE = "Request Header Fields Too Large: total headers size exceeded"  # td's HttpReader, 431
WRONG_REQUEST_LINE = "Bad Request: wrong request line"  # td's HttpReader

# --- chat access (telegram-bot-api Client::check_chat_access) -------------------------------------------------
CHAT_NOT_FOUND = "Bad Request: chat not found"
USER_NOT_FOUND = "Bad Request: user not found"
PRIVATE_CHAT_NOT_FOUND = "Bad Request: private chat not found"
FORBIDDEN_USER_DEACTIVATED = "Forbidden: user is deactivated"
FORBIDDEN_KICKED = "Forbidden: bot was kicked from the {kind} chat"  # group / supergroup / channel
FORBIDDEN_NOT_MEMBER = "Forbidden: bot is not a member of the {kind} chat"
GROUP_UPGRADED = "Bad Request: group chat was upgraded to a supergroup chat"
GROUP_DELETED = "Forbidden: the group chat was deleted"

# --- chats and messages ----------------------------------------------------------------------------------------
CHAT_ID_EMPTY = "Bad Request: chat_id is empty"
TEXT_EMPTY = "Bad Request: message text is empty"
TEXT_TOO_LONG = "Bad Request: message is too long"
CAPTION_TOO_LONG = "Bad Request: message caption is too long"
EDIT_NOT_FOUND = "Bad Request: message to edit not found"
CANT_EDIT = "Bad Request: message can't be edited"
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)
DELETE_NOT_FOUND = "Bad Request: message to delete not found"
REPLY_NOT_FOUND = "Bad Request: message to be replied not found"
REPLY_PARAMS_BAD = "Bad Request: can't parse reply parameters JSON object"
QUOTE_INVALID = "Bad Request: QUOTE_TEXT_INVALID"

# --- formatting (tgfake.text; TDLib's own words follow the prefixes) ----------------------------------------------
RAW_TEXT_TOO_LONG = "Bad Request: text is too long"  # over 32 768 bytes before parsing
PARSE_MODE_BAD = "Bad Request: unsupported parse_mode"
CANT_PARSE_ENTITIES = "Bad Request: can't parse entities: {reason}"
CANT_PARSE_ENTITY = "Bad Request: can't parse MessageEntity: {reason}"
TEXT_MUST_BE_NON_EMPTY = "Bad Request: text must be non-empty"  # empty once parsed and trimmed
CUSTOM_EMOJI_INVALID = "Bad Request: invalid custom emoji identifier specified"
DATE_INVALID = "Bad Request: invalid date specified"

# --- keyboards ---------------------------------------------------------------------------------------------------
MARKUP_NOT_JSON = "Bad Request: can't parse reply keyboard markup JSON object"  # Client.cpp's get_reply_markup
MARKUP_NOT_OBJECT = "Bad Request: object expected as reply markup"
KEYBOARD_NOT_ARRAY = 'Bad Request: Field "inline_keyboard" must be of type Array'
BUTTON_TYPE_INVALID = "Bad Request: BUTTON_TYPE_INVALID"
BUTTON_DATA_INVALID = "Bad Request: BUTTON_DATA_INVALID"
BUTTON_PROBLEM = "Bad Request: inline keyboard button {problem}"  # a url (td's check_link) or a Mini App address
BUTTON_NOT_OBJECT = "Bad Request: can't parse inline keyboard button: InlineKeyboardButton must be an Object"
BUTTON_UNPARSED = "Bad Request: can't parse inline keyboard button: {problem}"  # Client.cpp's wrap of a button's error
TEXT_BUTTONS = BUTTON_UNPARSED.format(problem="Text buttons are unallowed in the inline keyboard")

# --- updates, commands, callbacks ----------------------------------------------------------------------------------
CONFLICT_POLLS = "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"
ALLOWED_UPDATES_BAD = "Bad Request: can't parse allowed_updates JSON array"
COMMANDS_BAD = "Bad Request: can't parse commands JSON object"
CALLBACK_ID_EMPTY = "Bad Request: callback_query_id is empty"
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"

# --- webhooks ------------------------------------------------------------------------------------------------------
CERTIFICATE_TOO_BIG = "Bad Request: certificate size is too big ({size} bytes)"
CONFLICT_WEBHOOK = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"
)
CONFLICT_SET_WEBHOOK = "Conflict: terminated by setWebhook request"
WEBHOOK_URL_INVALID = "Bad Request: invalid webhook URL specified"
BAD_WEBHOOK = "Bad Request: bad webhook: {reason}"
SECRET_TOKEN_BAD = "Bad Request: secret token {problem}"  # "is too long" / "contains unallowed characters"
WEBHOOK_SET = "Webhook was set"
WEBHOOK_ALREADY_SET = "Webhook is already set"
WEBHOOK_DELETED = "Webhook was deleted"
WEBHOOK_ALREADY_DELETED = "Webhook is already deleted"


# --- parameter checks (tgfake/botapi/schema.py), as Client.cpp words them ------------------------------------------
PARAMETER_REQUIRED = 'Bad Request: parameter "{name}" is required'
INVALID_ID = "Bad Request: invalid {name} specified"  # get_user_id; the first letter lower-cased by the server
NO_FILE = "Bad Request: there is no {what} in the request"
COORDINATE_EMPTY = "Bad Request: {name} is empty"  # latitude, longitude
SENDER_CHAT_ID_EMPTY = "Bad Request: sender_chat_id is empty"
SENDER_CHAT_ID_BAD = "Bad Request: sender_chat_id is not a valid Integer"
CHAT_IDENTIFIER_EMPTY = "Bad Request: chat identifier is empty"  # chats named beside a business connection
CHAT_IDENTIFIER_BAD = "Bad Request: chat identifier must be a valid Integer"
MESSAGE_IDS_EMPTY = "Bad Request: message identifiers are not specified"
MESSAGE_IDS_BAD = "Bad Request: can't parse {name} JSON object"
MESSAGE_IDS_NOT_ARRAY = "Bad Request: expected an Array of message identifiers"
USER_IDS_EMPTY = "Bad Request: user identifiers are not specified"
INLINE_MESSAGE_ID_EMPTY = "Bad Request: message identifier is not specified"

# --- what the world does not have (the refusal-only families) ----------------------------------------------------
NOT_A_BOT = "Bad Request: user is not a bot"
BUSINESS_CONNECTION_NOT_FOUND = "Bad Request: business connection not found"
SUGGESTED_POST_NOT_FOUND = "Bad Request: suggested post not found"
BOT_VERIFIER_FORBIDDEN = "Bad Request: BOT_VERIFIER_FORBIDDEN"
STARGIFT_INVALID = "Bad Request: STARGIFT_INVALID"  # MTProto payments.getPaymentForm: no such gift

# --- issue 25's channel families (boosts, verification, managed bots, join request and guest queries) -----------
USER_IDS_NOT_ARRAY = "Bad Request: expected an Array of user identifiers"  # Client.cpp get_user_ids
USER_IDS_TOO_MANY = "Bad Request: too many user identifiers specified"
USER_ID_NOT_NUMBER = "Bad Request: user identifier must be a Number"
USER_ID_UNPARSABLE = "Bad Request: can't parse user identifier as a Number"
USER_ID_INVALID = "Bad Request: invalid user identifier specified"
BOT_INVALID = "Bad Request: BOT_INVALID"  # MTProto bots.*: a bot the caller neither owns nor manages
JOIN_QUERY_RESULT_INVALID = "Bad Request: invalid result specified"  # td: not approve, decline or queue
MESSAGE_CANT_BE_USED = "Bad Request: message can't be used in the method"  # td's process_suggested_post

# --- chat management (telegram-bot-api Client.cpp and the TDLib errors it relays, see docs/bot-api.md) ----------
INVALID_USER_ID = "Bad Request: invalid user_id specified"
MEMBER_NOT_FOUND = "Bad Request: member not found"
MEMBER_LIST_INACCESSIBLE = "Bad Request: member list is inaccessible"
PARTICIPANT_ID_INVALID = "Bad Request: PARTICIPANT_ID_INVALID"
USER_NOT_PARTICIPANT = "Bad Request: USER_NOT_PARTICIPANT"
USER_ALREADY_PARTICIPANT = "Bad Request: USER_ALREADY_PARTICIPANT"
CHAT_ADMIN_REQUIRED = "Bad Request: CHAT_ADMIN_REQUIRED"
RIGHT_FORBIDDEN = "Bad Request: RIGHT_FORBIDDEN"
CHAT_NOT_MODIFIED = "Bad Request: CHAT_NOT_MODIFIED"
USER_IS_ADMIN = "Bad Request: user is an administrator of the chat"  # USER_ADMIN_INVALID
NOT_ENOUGH_RIGHTS = "Bad Request: not enough rights"
NOT_ENOUGH_RIGHTS_TO = "Bad Request: not enough rights to {action}"
CANT_REMOVE_OWNER = "Bad Request: can't remove chat owner"
CANT_PROMOTE_SELF = "Bad Request: can't promote self"
CANT_RESTRICT_SELF = "Bad Request: can't restrict self"
BOTS_CANT_ADD = "Bad Request: bots can't add new chat members"
SUPERGROUP_OR_CHANNEL_ONLY = "Bad Request: method is available for supergroup and channel chats only"
SUPERGROUP_ONLY = "Bad Request: method is available only for supergroups"
GROUPS_ONLY = "Bad Request: method is available only for groups and supergroups"
NO_ADMINS_IN_PRIVATE = "Bad Request: there are no administrators in the private chat"
CANT_BAN_IN_PRIVATE = "Bad Request: can't ban members in private chats"
CANT_LEAVE_PRIVATE = "Bad Request: can't leave private chats"
CANT_CHANGE_PRIVATE = "Bad Request: can't change private chat {what}"  # title, photo, description, permissions
STATUS_IN_PRIVATE = "Bad Request: chat member status can't be changed in private chats"
OWNER_CUSTOM_TITLE = "Bad Request: only the owner can edit their custom title"
NOT_AN_ADMIN = "Bad Request: user is not an administrator"
CUSTOM_TITLE_INVALID = "Bad Request: CUSTOM_TITLE_INVALID"
TITLE_EMPTY = "Bad Request: title must be non-empty"
DESCRIPTION_NOT_MODIFIED = "Bad Request: chat description is not modified"
NO_PHOTO = "Bad Request: there is no photo in the request"
PHOTO_NOT_UPLOADED = "Bad Request: photo must be uploaded as an InputFile"
PERMISSIONS_BAD = "Bad Request: can't parse permissions JSON object"
PERMISSIONS_NOT_OBJECT = "Bad Request: object expected as permissions"
PERMISSIONS_FIELD = 'Bad Request: can\'t parse chat permissions: Field "{name}" must be of type Boolean'
CHANNEL_PERMISSIONS = "Bad Request: can't change channel chat permissions"
PIN_NOT_FOUND = "Bad Request: message to pin not found"
UNPIN_NOT_FOUND = "Bad Request: message to unpin not found"
SERVICE_PIN = "Bad Request: service messages can't be pinned"
BAN_CHATS_IN_GROUPS = "Bad Request: can't ban chats in basic groups"
INVITE_IN_PRIVATE = "Bad Request: can't invite members to a private chat"
INVITE_LINK_EMPTY = "Bad Request: invite link must be non-empty"
INVITE_LINK_LIMIT = "Bad Request: member limit can't be specified for links requiring administrator approval"
INVITE_HASH_EXPIRED = "Bad Request: INVITE_HASH_EXPIRED"
SUBSCRIPTION_PRICING = "Bad Request: invalid subscription pricing specified"
JOIN_REQUESTS_IN_PRIVATE = "Bad Request: the chat can't have join requests"
HIDE_REQUESTER_MISSING = "Bad Request: HIDE_REQUESTER_MISSING"
NOT_A_FORUM = "Bad Request: the chat is not a forum"
TOPIC_ID_BAD = "Bad Request: invalid forum topic identifier specified"
TOPIC_ID_INVALID = "Bad Request: TOPIC_ID_INVALID"
TOPIC_NOT_MODIFIED = "Bad Request: TOPIC_NOT_MODIFIED"
TOPIC_NAME_EMPTY = "Bad Request: name must be non-empty"
TOPIC_COLOR_BAD = "Bad Request: invalid icon color specified"


# --- bot settings (tgfake/botapi/settings.py): Client.cpp, TDLib's BotCommand.cpp, BotCommandScope.cpp, misc.cpp ---
CANT_PARSE_JSON = "Bad Request: can't parse {what} JSON object"
CANT_PARSE_OBJECT = "Bad Request: can't parse {what}: {problem}"  # problem: TDLib's words, first letter kept
FIELD_MISSING = 'Can\'t find field "{name}"'
FIELD_NOT_STRING = 'Field "{name}" must be of type String'
FIELD_NOT_NUMBER = 'Field "{name}" must be a Number'
FIELD_BAD_NUMBER = 'Field "{name}" must be a valid Number'
FIELD_NOT_BOOLEAN = 'Field "{name}" must be of type Boolean'
FIELD_NOT_DOUBLE = 'Field "{name}" must be of type Number'
NOT_AN_OBJECT = "expected an Object"
COMMANDS_NOT_ARRAY = "Bad Request: expected an Array of BotCommand"
SCOPE_NOT_OBJECT = "BotCommandScope must be an Object"
SCOPE_TYPE_UNSUPPORTED = "Unsupported type specified"
SCOPE_CHAT_EMPTY = "Empty chat_id specified"
SCOPE_USER_INVALID = "Invalid user_id specified"
SCOPE_PRIVATE = "Bad Request: can't use specified scope in private chats"
SCOPE_CHANNEL = "Bad Request: can't change commands in channel chats"
LANGUAGE_INVALID = "Bad Request: invalid language code specified"
COMMAND_EMPTY = "Bad Request: command must be non-empty"
COMMAND_TOO_LONG = "Bad Request: command length must not exceed {limit}"
COMMAND_DESCRIPTION_EMPTY = "Bad Request: command description must be non-empty"
COMMAND_DESCRIPTION_TOO_LONG = "Bad Request: command description length must not exceed {limit}"
BOT_COMMAND_INVALID = "Bad Request: BOT_COMMAND_INVALID"  # the MTProto server: characters beyond a-z, 0-9, _
RIGHTS_NOT_OBJECT = "ChatAdministratorRights must be an Object"
PHOTO_NOT_SPECIFIED = "Bad Request: photo isn't specified"
PHOTO_NOT_OBJECT = "Bad Request: object expected as profile photo"
PHOTO_TYPE_INVALID = "Bad Request: invalid profile photo type specified"
PROFILE_PHOTO_NOT_UPLOADED = "Bad Request: photo must be uploaded as a file"
LOGGED_OUT = "Logged out"  # Client::get_closing_error after logOut: 400, no prefix

# --- payments (tgfake/botapi/payments.py): Client.cpp, TDLib's InputInvoice.cpp, LabeledPricePart.cpp ---------------
PRICES_NOT_ARRAY = "Expected an Array of labeled prices"  # the price list's words are TDLib's, worded by the caller
PRICE_NOT_OBJECT = "LabeledPrice must be an Object"
PRICE_LABEL_EMPTY = "LabeledPrice label must be non-empty"
PRICE_PROBLEM = "Can't parse labeled price: {problem}"
PRICES_EMPTY = "There must be at least one price"
MAX_TIP_BAD = 'Bad Request: can\'t parse "max_tip_amount" as Number'
TIPS_NOT_ARRAY = "Bad Request: expected an Array of suggested tip amounts"
TIP_NOT_NUMBER = "Bad Request: suggested tip amount must be of type Number or String"
TIP_BAD_NUMBER = "Bad Request: can't parse suggested tip amount as Number"
AMOUNT_TOO_BIG = "Bad Request: too big amount of the currency specified"
TOTAL_NOT_POSITIVE = "Bad Request: total price must be positive"
TOTAL_TOO_BIG = "Bad Request: total price is too big"
MAX_TIP_INVALID = "Bad Request: invalid max_tip_amount of the currency specified"
TIP_NOT_POSITIVE = "Bad Request: suggested tip amount must be positive"
TIP_ABOVE_MAX = "Bad Request: suggested tip amount can't be bigger than max_tip_amount"
TIPS_TOO_MANY = "Bad Request: there can be at most 4 suggested tip amounts"
STARS_INVOICE_INVALID = "Bad Request: STARS_INVOICE_INVALID"  # MTProto: XTR with a provider, tips or several prices
PAYMENT_PROVIDER_INVALID = "Bad Request: PAYMENT_PROVIDER_INVALID"  # MTProto: a real currency without a provider
SHIPPING_OPTIONS_BAD = "Bad Request: can't parse shipping options JSON object"
SHIPPING_OPTIONS_NOT_ARRAY = "Bad Request: expected an Array of shipping options"
SHIPPING_OPTION_PROBLEM = "Bad Request: can't parse shipping option: {problem}"
SHIPPING_OPTION_NOT_OBJECT = "ShippingOption must be an Object"
SHIPPING_OPTION_ID_EMPTY = "ShippingOption identifier must be non-empty"
SHIPPING_OPTION_TITLE_EMPTY = "ShippingOption title must be non-empty"
SHIPPING_OPTION_PRICES = "Can't parse shipping option prices: {problem}"
SHIPPING_OPTIONS_EMPTY = "Bad Request: there must be at least one shipping option"
FIELD_NOT_ARRAY = 'Field "{name}" must be of type Array'
CHARGE_ID_INVALID = "Bad Request: CHARGE_ID_INVALID"  # MTProto: a charge this bot never received from that person
CHARGE_ALREADY_REFUNDED = "Bad Request: CHARGE_ALREADY_REFUNDED"

# --- games (tgfake/botapi/games.py): Client.cpp's check_message wording, Telegram's server ------------------------
GAME_SCORE_MESSAGE_NOT_FOUND = "Bad Request: message to set game score not found"
GAME_SCORES_MESSAGE_NOT_FOUND = "Bad Request: message to get game high scores not found"
BOT_SCORE_NOT_MODIFIED = "Bad Request: BOT_SCORE_NOT_MODIFIED"  # MTProto: not above the old score without force

# --- stickers (tgfake/botapi/stickers.py): Client.cpp, TDLib's StickersManager.cpp, Telegram's server -------------
STICKER_FORMAT_INVALID = "Invalid sticker format specified"
STICKER_TYPE_INVALID = "Bad Request: unsupported sticker type specified"
STICKERS_BAD = "Bad Request: can't parse stickers JSON object"
STICKERS_NOT_ARRAY = "Bad Request: expected an Array of InputSticker"
STICKERS_TOO_MANY = "Bad Request: too many stickers specified"
INPUT_STICKER_PROBLEM = "Bad Request: can't parse InputSticker: {problem}"
STICKER_BAD = "Bad Request: can't parse sticker JSON object"
STICKER_PROBLEM = "Bad Request: can't parse sticker: {problem}"
INPUT_STICKER_NOT_OBJECT = "InputSticker must be an Object"
INPUT_STICKER_FILE_MISSING = "sticker not found"
NO_STICKER_FILE = "Bad Request: there is no sticker file in the request"
ANIMATED_STICKER_NOT_UPLOADED = "Bad Request: animated sticker must be uploaded as an InputFile"
VIDEO_STICKER_NOT_UPLOADED = "Bad Request: video sticker must be uploaded as an InputFile"
URL_WRONG_TYPE = "Bad Request: wrong type of the web page content"  # WEBPAGE_MEDIA_EMPTY, as Client.cpp words it
STICKER_EMOJI_INVALID = "Bad Request: invalid sticker emojis"  # STICKER_EMOJI_INVALID as fail_query_with_error words it
EMOJI_LIST_BAD = "Bad Request: can't parse emoji list JSON array"
EMOJI_LIST_PROBLEM = "Bad Request: can't parse emoji list: {problem}"
EMOJIS_NOT_ARRAY = "expected an Array of string"
EMOJIS_EMPTY = "emoji list must be non-empty"
EMOJIS_TOO_MANY = "too many emoji specified"
EMOJI_NOT_STRING = "emoji must be a string"
EMOJI_INVALID = "expected a Unicode emoji"
KEYWORD_NOT_STRING = "keyword must be a string"
KEYWORDS_BAD = "Bad Request: can't parse keywords JSON object"
KEYWORDS_NOT_ARRAY = 'Bad Request: Field "keywords" must be an Array'
MASK_BAD = "Bad Request: can't parse mask position JSON object"
MASK_PROBLEM = "Bad Request: can't parse mask position: {problem}"
MASK_NOT_OBJECT = "MaskPosition must be an Object"
MASK_POINT_INVALID = "Wrong point specified in MaskPosition"
STICKER_NOT_SPECIFIED = "Bad Request: sticker is not specified"
SET_TITLE_EMPTY = "Bad Request: sticker set title must be non-empty"
SET_NAME_EMPTY = "Bad Request: sticker set name must be non-empty"
SET_NO_STICKERS = "Bad Request: at least 1 sticker must be specified"
REPAINTING_ONLY_EMOJI = "Bad Request: only custom emoji stickers support repainting"
SET_NAME_INVALID = "Bad Request: invalid sticker set name is specified"  # PACK_SHORT_NAME_INVALID
SET_NAME_OCCUPIED = "Bad Request: sticker set name is already occupied"  # PACK_SHORT_NAME_OCCUPIED
STICKERSET_INVALID = "Bad Request: STICKERSET_INVALID"  # MTProto: no such set, or not this bot's
CUSTOM_EMOJI_IDS_BAD = "Bad Request: can't parse custom emoji identifiers JSON object"
CUSTOM_EMOJI_IDS_NOT_ARRAY = "Bad Request: expected an Array of custom emoji identifiers"
CUSTOM_EMOJI_ID_NOT_STRING = "Bad Request: custom emoji identifier must be of type String"

# --- polls and checklists (tgfake/botapi/polls.py): Client.cpp, TDLib's MessageContent.cpp, PollOption.cpp,
# PollManager.cpp, MessagesManager.cpp, Telegram's server ----------------------------------------------------------
POLL_OPTIONS_NOT_ARRAY = "Bad Request: expected an Array of String as options"
POLL_OPTION_NOT_STRING = "Bad Request: expected an option to be of type String"
POLL_OPTION_MEDIA = "Bad Request: failed to parse poll option media: {problem}"
POLL_MEDIA_PROBLEM = "Bad Request: failed to parse InputPollMedia: {problem}"
POLL_MEDIA_TYPE = "invalid type specified"
POLL_TYPE_UNSUPPORTED = "Bad Request: unsupported poll type specified"
CORRECT_IDS_NOT_ARRAY = "Bad Request: expected an Array of correct option identifiers"
CORRECT_ID_NOT_NUMBER = "Bad Request: correct option identifier must be of type Number"
CORRECT_ID_INVALID = "Bad Request: invalid correct option identifier specified"
STRINGS_NOT_ARRAY = "Bad Request: expected an Array of String"
TOO_MANY_ITEMS = "Bad Request: too many items specified"
POLL_QUESTION_TOO_LONG = "Bad Request: poll question length must not exceed {limit}"
POLL_NO_OPTIONS = "Bad Request: poll must have at least one answer option"
POLL_TOO_MANY_OPTIONS = "Bad Request: poll can't have more than {limit} options"
POLL_OPTION_TOO_LONG = "Bad Request: poll options length must not exceed {limit}"
QUIZ_NO_CORRECT = "Bad Request: correct quiz option list must be non-empty"
QUIZ_CORRECT_NOT_INCREASING = "Bad Request: correct quiz option list must be increasing"
QUIZ_CORRECT_WRONG = "Bad Request: wrong quiz correct_option_id"
COUNTRY_CODE_INVALID = "Bad Request: invalid country code specified"
POLL_VOTERS_RESTRICTED = "Bad Request: poll voters can be restricted only in channel chats"
PUBLIC_VOTERS_FORBIDDEN = "Bad Request: BROADCAST_PUBLIC_VOTERS_FORBIDDEN"  # MTProto: a channel's poll is anonymous
POLL_MESSAGE_NOT_FOUND = "Bad Request: message with poll to stop not found"
NOT_A_POLL = "Bad Request: message is not a poll"
POLL_CANT_STOP = "Bad Request: poll can't be stopped"
POLL_ALREADY_CLOSED = "Bad Request: poll has already been closed"
CHECKLIST_PROBLEM = "Bad Request: can't parse InputChecklist: {problem}"
CHECKLIST_TASK_PROBLEM = "Can't parse InputChecklistTask: {problem}"
# --- issue 12's remaining methods (tgfake/botapi/ephemeral.py, premium.py, group_settings.py, paid_media.py...) ---
CANT_ACCESS_USER = "Bad Request: can't access the user"  # TDLib's Edit/DeleteEphemeralMessageQuery
MESSAGE_ID_INVALID = "Bad Request: MESSAGE_ID_INVALID"  # MTProto: no message with that id
RESULT_NOT_SPECIFIED = "Bad Request: result isn't specified"  # Client.cpp get_inline_query_result
RESULT_BAD_JSON = "Bad Request: can't parse JSON encoded web view query results"
RESULT_NOT_OBJECT = "Bad Request: inline query result must be an object"
AMOUNT_INVALID = "Bad Request: invalid amount of the currency specified"  # TDLib check_payment_amount
PREMIUM_PRICE_WRONG = "Bad Request: wrong Premium subscription price specified"  # GetPremiumGiftPaymentFormQuery
BALANCE_TOO_LOW = "Bad Request: BALANCE_TOO_LOW"
STICKER_SET_NAME_EMPTY = "Bad Request: sticker_set_name is empty"  # Client.cpp resolve_sticker_set
STICKER_SET_NOT_FOUND = "Bad Request: sticker set not found"
NO_RIGHTS_STICKER_SET = "Bad Request: not enough rights to change supergroup sticker set"  # TDLib ChatManager
TAG_IN_PRIVATE = "Bad Request: chat member tag can't be changed in private chats"
LIMIT_NOT_POSITIVE = "Bad Request: limit must be positive"  # TDLib get_personal_chat_history
EMOJI_STATUS_FORBIDDEN = "Forbidden: not enough rights to change the user's emoji status"  # USER_PERMISSION_DENIED
PASSPORT_ERRORS_BAD_JSON = "Bad Request: can't parse errors JSON object"  # Client.cpp get_passport_element_errors
PASSPORT_ERRORS_NOT_ARRAY = "Bad Request: expected an Array of PassportElementError"
PASSPORT_ERROR_PROBLEM = "Bad Request: can't parse PassportElementError: {problem}"
PAID_MEDIA_BAD_JSON = "Bad Request: can't parse paid media JSON object"  # Client.cpp get_paid_media
PAID_MEDIA_NOT_ARRAY = "Bad Request: expected an Array of InputPaidMedia"
PAID_MEDIA_PROBLEM = "Bad Request: can't parse InputPaidMedia: {problem}"
PAID_MEDIA_PRICE = "Bad Request: invalid media price specified"  # TDLib MessageContent.cpp
PAID_MEDIA_COUNT = "Bad Request: invalid number of paid media specified"


# --- forwards, copies, deletions, reactions, edits (tgfake/botapi/{forwards,edits,reactions}.py): Client.cpp's
# check_message words ("<what> not found"), then TDLib's (MessagesManager.cpp, MessageReaction.cpp) as
# fail_query_with_error words them, then Telegram's server (REACTION_INVALID, REACTIONS_TOO_MANY)
MESSAGE_TO_NOT_FOUND = "Bad Request: {what} not found"  # message to forward / copy / react / delete reactions
CANT_FORWARD = "Bad Request: the message can't be forwarded"
CANT_COPY = "Bad Request: the message can't be copied"
MESSAGES_CANT_FORWARD = "Bad Request: messages can't be forwarded"
NO_MESSAGES_TO_FORWARD = "Bad Request: there are no messages to forward"
MESSAGE_IDS_NOT_INCREASING = "Bad Request: message identifiers must be in a strictly increasing order"
MESSAGE_IDS_TOO_MANY = "Bad Request: too many message identifiers specified"
MESSAGE_ID_NOT_NUMBER = "Bad Request: message identifier must be a Number"
MESSAGE_ID_UNPARSABLE = "Bad Request: can't parse message identifier as a Number"
MESSAGE_ID_NOT_POSITIVE = "Bad Request: invalid message identifier specified"
CANT_DELETE = "Bad Request: message can't be deleted"
WRONG_CHAT_ACTION = "Bad Request: Wrong parameter action in request"  # process_send_chat_action_query
CANT_DELETE_FOR_EVERYONE = "Bad Request: message can't be deleted for everyone"
REACTIONS_BAD = "Bad Request: can't parse reaction types JSON object"
REACTIONS_NOT_ARRAY = "Bad Request: expected an Array of ReactionType"
REACTION_PROBLEM = "Bad Request: can't parse ReactionType: {problem}"
REACTION_TYPE_INVALID = "invalid reaction type specified"
REACTION_EMPTY = "Bad Request: invalid reaction type specified"  # TDLib: an empty emoji
REACTION_INVALID = "Bad Request: REACTION_INVALID"  # the server: not a reaction emoji, or not allowed in the chat
REACTIONS_TOO_MANY = "Bad Request: REACTIONS_TOO_MANY"  # the server: a bot (not Premium) sets one reaction
REACTION_SENDER_NOT_FOUND = "Bad Request: reaction sender not found"
NO_CAPTION_TO_EDIT = "Bad Request: there is no caption in the message to edit"
NO_LIVE_LOCATION_TO_EDIT = "Bad Request: there is no live location in the message to edit"
MEDIA_CANT_BE_EDITED = "Bad Request: message media can't be edited"
ALBUM_TYPE_INVALID = "Bad Request: message content type can't be used in an album"
ALBUM_TYPE_CHANGE = "Bad Request: can't change media type in the album"
INPUT_MEDIA_BAD = "Bad Request: can't parse input media JSON object"
MEDIA_GROUP_BAD_JSON = "Bad Request: can't parse media JSON object"  # Client.cpp get_input_media (sendMediaGroup)
MEDIA_GROUP_NOT_ARRAY = "Bad Request: expected an Array of InputMedia"
INLINE_MESSAGE_ID_INVALID = "Bad Request: invalid inline message identifier specified"  # TDLib: none can be parsed
PROXIMITY_RADIUS_BAD = "Bad Request: wrong live location proximity alert radius specified"
UPSTREAM_UNREACHABLE = "Bad Gateway: the upstream {upstream} did not answer: {reason}"  # tgfake record's own
PHOTO_INVALID_DIMENSIONS = "Bad Request: PHOTO_INVALID_DIMENSIONS"  # the server's, as td passes it on

# --- business connections, accounts, stories, gifts (tgfake/world/business.py, gifts.py): TDLib's
# BusinessConnectionManager.cpp (its first letter lower-cased by Client.cpp), the MTProto errors it relays in
# capitals (a 403 in capitals becomes a 400, fail_query_with_error) ----------------------------------------------
BUSINESS_CHAT_NOT_PRIVATE = "Bad Request: chat must be a private chat"  # td check_business_connection
BUSINESS_SEND_TO_SELF = "Bad Request: messages must not be sent to self"  # td check_business_connection
BUSINESS_CONNECTION_INVALID = "Bad Request: BUSINESS_CONNECTION_INVALID"  # a connection the person disabled
BUSINESS_PEER_USAGE_MISSING = "Bad Request: BUSINESS_PEER_USAGE_MISSING"  # the customer did not write in 24 hours
BOT_ACCESS_FORBIDDEN = "Bad Request: BOT_ACCESS_FORBIDDEN"  # the connection lacks the right the call needs
CANT_FORWARD_AS_BUSINESS = "Bad Request: can't forward messages as business"  # td process_input_message_content
USERNAME_INVALID = "Bad Request: USERNAME_INVALID"  # account.updateUsername
USERNAME_OCCUPIED = "Bad Request: USERNAME_OCCUPIED"
USERNAME_NOT_MODIFIED = "Bad Request: USERNAME_NOT_MODIFIED"
ABOUT_TOO_LONG = "Bad Request: ABOUT_TOO_LONG"  # account.updateProfile: a bio over 70 characters
STARS_AMOUNT_INVALID = "Bad Request: STARS_AMOUNT_INVALID"
STORY_ID_INVALID = "Bad Request: STORY_ID_INVALID"  # stories.editStory / deleteStories: no such story
STORY_PERIOD_INVALID = "Bad Request: STORY_PERIOD_INVALID"  # active_period not one of Telegram's four
STARGIFT_USAGE_LIMITED = "Bad Request: STARGIFT_USAGE_LIMITED"  # a limited gift sold out
STARGIFT_NOT_FOUND = "Bad Request: STARGIFT_NOT_FOUND"  # an owned gift id that names no gift of the account
STARGIFT_OWNER_INVALID = "Bad Request: STARGIFT_OWNER_INVALID"  # another account's gift
STARGIFT_NOT_UNIQUE = "Bad Request: STARGIFT_NOT_UNIQUE"  # transferring a gift that was not upgraded
STARGIFT_UPGRADE_UNAVAILABLE = "Bad Request: STARGIFT_UPGRADE_UNAVAILABLE"
STARGIFT_ALREADY_UPGRADED = "Bad Request: STARGIFT_ALREADY_UPGRADED"


def default_description(code: int, retry_after: int = 0) -> str:
    """The description a scheduled fault answers with when it names none (the reference stand's table)."""
    if code == 400:
        return BAD_REQUEST
    if code == 401:
        return UNAUTHORIZED
    if code == 403:
        return FORBIDDEN_BLOCKED
    if code == 404:
        return NOT_FOUND
    if code == 429:
        return f"{TOO_MANY}: retry after {retry_after}" if retry_after > 0 else TOO_MANY
    if code == 502:
        return BAD_GATEWAY
    return INTERNAL


class TelegramError(Exception):
    """A Bot API refusal: answered as ``{"ok":false,"error_code":status,"description":...}`` with that HTTP status."""

    def __init__(self, status: int, description: str, retry_after: int = 0, migrate_to_chat_id: int = 0) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.retry_after = retry_after
        self.migrate_to_chat_id = migrate_to_chat_id


def bad_request(description: str) -> TelegramError:
    """The common case: a 400 with one of the descriptions above."""
    return TelegramError(400, description)


class SimError(Exception):
    """A simulation API refusal: answered as ``{"error": message}`` with the given HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message

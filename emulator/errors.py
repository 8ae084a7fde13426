"""Bot API errors with Telegram's own codes and wording.

The descriptions below are the ones Telegram sends (as seen in bots' logs and in libraries'
issue trackers); bots and python-telegram-bot match on them, so they must stay word for word.
"""

from __future__ import annotations


class ApiError(Exception):
    def __init__(self, code: int, description: str, parameters: dict | None = None):
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters

    def to_json(self) -> dict:
        body = {"ok": False, "error_code": self.code, "description": self.description}
        if self.parameters:
            body["parameters"] = self.parameters
        return body


UNAUTHORIZED = "Unauthorized"
NOT_FOUND = "Not Found"
CHAT_NOT_FOUND = "Bad Request: chat not found"
USER_NOT_FOUND = "Bad Request: user not found"
TEXT_EMPTY = "Bad Request: message text is empty"
TEXT_TOO_LONG = "Bad Request: message is too long"
CAPTION_TOO_LONG = "Bad Request: message caption is too long"
BUTTON_DATA_INVALID = "Bad Request: BUTTON_DATA_INVALID"
BUTTON_URL_INVALID = "Bad Request: BUTTON_URL_INVALID"
TEXT_BUTTONS = "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
MARKUP_TOO_LONG = "Bad Request: reply markup is too long"
MARKUP_JSON = "Bad Request: can't parse reply keyboard markup JSON object"
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)
REPLY_NOT_FOUND = "Bad Request: message to be replied not found"
EDIT_NOT_FOUND = "Bad Request: message to edit not found"
DELETE_NOT_FOUND = "Bad Request: message to delete not found"
PIN_NOT_FOUND = "Bad Request: message to pin not found"
PIN_RIGHTS = "Bad Request: not enough rights to manage pinned messages in the chat"
CANT_EDIT = "Bad Request: message can't be edited"
NO_TEXT_TO_EDIT = "Bad Request: there is no text in the message to edit"
NO_CAPTION_TO_EDIT = "Bad Request: there is no caption in the message to edit"
NO_MEDIA_TO_EDIT = "Bad Request: there is no media in the message to edit"
CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"
BOT_BLOCKED = "Forbidden: bot was blocked by the user"
BOT_NOT_MEMBER = "Forbidden: bot is not a member of the group chat"
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
WEBHOOK_CONFLICT = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"
)
GETUPDATES_CONFLICT = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"
)
WRONG_FILE_ID = "Bad Request: wrong file identifier/HTTP URL specified"
URL_CONTENT = "Bad Request: failed to get HTTP URL content"
IMAGE_INVALID = "Bad Request: IMAGE_PROCESS_FAILED"
PHOTO_EMPTY = "Bad Request: there is no photo in the request"
DOCUMENT_EMPTY = "Bad Request: there is no document in the request"
FILE_EMPTY = "Bad Request: file must be non-empty"
WRONG_ACTION = "Bad Request: wrong parameter action in request"
COMMAND_INVALID = "Bad Request: BOT_COMMAND_INVALID"
COMMAND_DESCRIPTION_INVALID = "Bad Request: command description is empty"
SECRET_INVALID = "Bad Request: secret token contains unallowed characters"
BAD_WEBHOOK_URL = "Bad Request: bad webhook: An HTTPS URL must be provided for webhook"
INTERNAL = "Internal Server Error"


def too_many_requests(retry_after: int) -> ApiError:
    return ApiError(429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after})


def missing(name: str) -> ApiError:
    return ApiError(400, f"Bad Request: {name} is empty")


def invalid(name: str) -> ApiError:
    return ApiError(400, f"Bad Request: invalid {name} specified")

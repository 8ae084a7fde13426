"""Settings of one emulator instance: the bot's identity, flood limits, timings."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

# The documented default token. Any other token is answered 401 Unauthorized, like Telegram.
DEFAULT_TOKEN = "123456789:LOCAL-emulator-token"
DEFAULT_BOT_USERNAME = "BoardGamesLocalBot"
DEFAULT_BOT_NAME = "BoardGamesBot (local)"


@dataclass(frozen=True)
class Limit:
    """At most `count` counted calls in any sliding window of `period` seconds."""

    count: int
    period: float

    @classmethod
    def parse(cls, text: str) -> Limit:
        """'20/60' -> 20 calls per 60 s."""
        count, _, period = text.partition("/")
        return cls(int(count), float(period or 1))

    def as_text(self) -> str:
        return f"{self.count}/{self.period:g}"


@dataclass(frozen=True)
class Limits:
    """Telegram's flood limits (Bots FAQ: ~1 msg/s per chat with short bursts allowed,
    20 msgs/min per group, ~30 msgs/s overall). `None` switches a limit off.

    The per-chat default admits a burst of 3 and then averages 1 per second, because Telegram
    says it "may allow short bursts" and a bot that answers with two messages in a row is normal.
    """

    per_chat: Limit | None = Limit(3, 3.0)
    per_group: Limit | None = Limit(20, 60.0)
    overall: Limit | None = Limit(30, 1.0)

    @classmethod
    def off(cls) -> Limits:
        return cls(None, None, None)

    def to_json(self) -> dict:
        return {name: (lim.as_text() if lim else None) for name, lim in self._items()}

    def _items(self):
        return (("per_chat", self.per_chat), ("per_group", self.per_group), ("overall", self.overall))

    def updated(self, values: dict) -> Limits:
        """Apply {"per_chat": "1/1" | null, ...} (unknown keys raise KeyError)."""
        changes = {}
        for key, value in values.items():
            if key not in ("per_chat", "per_group", "overall"):
                raise KeyError(key)
            if value is None or value == "off":
                changes[key] = None
            elif isinstance(value, dict):
                changes[key] = Limit(int(value["count"]), float(value["period"]))
            else:
                changes[key] = Limit.parse(str(value))
        return replace(self, **changes)


@dataclass
class EmulatorConfig:
    token: str = DEFAULT_TOKEN
    bot_username: str = DEFAULT_BOT_USERNAME
    bot_name: str = DEFAULT_BOT_NAME
    limits: Limits = field(default_factory=Limits)
    # Telegram bots start with privacy mode on: in groups they only see commands.
    privacy_mode: bool = True
    # How long POST /_emulator/callbacks waits for answerCallbackQuery by default.
    callback_wait: float = 5.0
    # How long a callback query may still be answered (Telegram: roughly 15 s).
    callback_ttl: float = 15.0
    # Webhook delivery: per-attempt timeout and the retry backoff (doubling) bounds.
    webhook_timeout: float = 10.0
    webhook_retry_initial: float = 0.2
    webhook_retry_max: float = 5.0
    # A "typing…" chat action shows for this long (Telegram: 5 s or until the next message).
    chat_action_seconds: float = 5.0

    @property
    def bot_id(self) -> int:
        head = self.token.partition(":")[0]
        return int(head) if head.isdigit() else 123456789

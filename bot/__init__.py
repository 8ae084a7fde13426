"""The webhook front end: Telegram updates in, commands into Redis inboxes, Celery woken.

    from bot import create_app          # an ASGI app (Starlette) to serve with uvicorn
    from bot import Webhook             # its routes and lifespan, to mount elsewhere
"""

from bot.app import Webhook, create_app

__all__ = ["Webhook", "create_app"]

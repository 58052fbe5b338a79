"""django-q2's ORM broker, rung instead of polled (the embedded default's task queue).

django-q2's ORM broker looks for queued tasks every ``poll`` seconds (0.1 here): ten
queries a second of an idle server. This one's pusher waits on a doorbell
(config/doorbell.py) that every enqueue rings once its task is committed, so a queued step
expiry or computer turn is taken at once, and an idle cluster looks once a second.
"""

from __future__ import annotations

from time import sleep
from typing import Any

from django.conf import settings
from django.utils import timezone
from django_q.brokers.orm import ORM
from django_q.conf import Conf

from config import doorbell


class RungORM(ORM):
    _bell: doorbell.Doorbell | None = None
    _bell_opened = False

    def _folder(self) -> Any:
        return getattr(settings, "DOORBELLS", None)

    def enqueue(self, task: Any) -> Any:
        task_id = super().enqueue(task)
        doorbell.ring_after_commit(self._folder(), [self._name()], using=Conf.ORM)
        return task_id

    def _name(self) -> str:
        return f"q2:{self.list_key or Conf.CLUSTER_NAME}"

    def dequeue(self) -> list[tuple[Any, Any]] | None:
        """ORM.dequeue, waiting on the bell where it would sleep."""
        if not self._bell_opened:  # only a pusher dequeues: only it binds a bell, before
            self._bell_opened = True  # its first look, so that no ring is missed
            self._bell = doorbell.Doorbell.open(self._folder(), self._name())
        tasks = self.get_connection().filter(key=self.list_key, lock__lt=timezone.now())[
            0 : Conf.BULK
        ]
        if tasks:
            taken = []
            for task in tasks:
                # another cluster may have been faster to this task: then it is not ours
                if (
                    self.get_connection()
                    .filter(id=task.id, lock=task.lock)
                    .update(lock=self.timeout(task))
                ):
                    taken.append((task.pk, task.payload))
            return taken
        self._doze()
        return None

    def _doze(self) -> None:
        if self._bell is None:
            sleep(Conf.POLL)
        else:
            self._bell.wait(doorbell.FALLBACK)

from django.apps import AppConfig
from django.db.models.signals import post_migrate

MODERATORS = "Moderators"
MODERATOR_PERMISSIONS = [
    "view_flag",
    "change_flag",
    "view_blockedword",
    "add_blockedword",
    "change_blockedword",
    "delete_blockedword",
    "view_moderationaction",
]


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = "Moderation"

    def ready(self) -> None:
        from games.flags import provide_blocked_words

        from .services import blocked_words

        # The moderators' words, for the games that check texts (Constellate's W3, beside
        # its slur list): handed over through the platform, so no game is imported here.
        provide_blocked_words(blocked_words)
        post_migrate.connect(ensure_moderators_group, sender=self)


def ensure_moderators_group(**kwargs: object) -> None:
    """A group that reviews flags and edits the blocklist without being superuser."""
    from django.contrib.auth.models import Group, Permission

    group, _ = Group.objects.get_or_create(name=MODERATORS)
    perms = Permission.objects.filter(
        content_type__app_label="moderation", codename__in=MODERATOR_PERMISSIONS
    )
    group.permissions.add(*perms)

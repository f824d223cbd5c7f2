"""hanseweb/pageversion.py: a page's version digested from values-list parts (issue 26)."""
import pytest

from games.models import Seat
from hanseweb import pageversion

pytestmark = pytest.mark.django_db


def _parts(uid: int) -> list:  # a build for digest_of: ids in, parts out
    return [Seat.objects.filter(user_id=uid).order_by().values_list("game_id", "number", "resigned", "game__move_count")]


def test_a_digest_changes_with_any_value_of_its_parts_and_only_then(started_game):
    game, users = started_game("hansa", 3)
    first = pageversion.digest(*_parts(users[0].pk))
    assert pageversion.digest(*_parts(users[0].pk)) == first
    Seat.objects.filter(game=game, user=users[0]).update(resigned=True)
    resigned = pageversion.digest(*_parts(users[0].pk))
    assert resigned != first
    type(game).objects.filter(pk=game.pk).update(move_count=7)
    assert pageversion.digest(*_parts(users[0].pk)) not in (first, resigned)


def test_digest_of_makes_the_statement_once_and_puts_each_callers_ids_in(started_game, django_assert_num_queries):
    game, users = started_game("hansa", 3)
    built = []

    def build(uid):
        built.append(uid)
        return _parts(uid)

    for user in users:
        expected = pageversion.digest(*_parts(user.pk))
        with django_assert_num_queries(1):
            assert pageversion.digest_of(build, user.pk) == expected
    assert len(built) == 1  # made once, with stand-ins, not with a caller's id
    assert built[0] not in [u.pk for u in users]
    # players of different games have different versions; one change shows in its player's only
    before = {u.pk: pageversion.digest_of(build, u.pk) for u in users}
    assert len(set(before.values())) == len(users)
    Seat.objects.filter(game=game, user=users[1]).update(resigned=True)
    after = {u.pk: pageversion.digest_of(build, u.pk) for u in users}
    assert after[users[1].pk] != before[users[1].pk]
    assert all(after[u.pk] == before[u.pk] for u in (users[0], users[2]))

"""Credit goes to the person who did the work: identities merged, bots never credited.

Histories are real git repositories (tests/gitrepo.py) read by the git source.
"""

import datetime as dt

from gitrepo import Commit, day
from mergecast.analysis.digest import build_digest
from mergecast.analysis.identity import Identities, bot_names, credit_of
from mergecast.config import AreasConfig
from mergecast.models import Change, Person, State, Window
from mergecast.sources.git import GitSource

ADA_NOREPLY = ("ada-l", "4242+ada-l@users.noreply.github.com")
BOT = ("PyTorch MergeBot", "pytorchmergebot@users.noreply.github.com")


def window(n: int) -> Window:
    return Window(day(n, 0), day(n, 0) + dt.timedelta(days=1))


def changes_of(make_repo, commits) -> list[Change]:
    return list(GitSource(make_repo(commits), slug="acme/widgets").read())


def msg(title: str, body: str) -> str:
    return f"{title}\n\n{body}"


def by_number(d, n):
    return next(c for c in d.changes if c.number == n)


def test_one_person_under_three_spellings_is_one_developer(make_repo):
    changes = changes_of(make_repo, [
        Commit("Speed up the widget loader (#11)", day(20, 9), {"w/load.py": b"a\n"},
               author=ADA_NOREPLY),
        Commit("Cache widget lookups (#12)", day(20, 10), {"w/cache.py": b"a\n"},
               author=("Ada Lovelace", "4242+ada-l@users.noreply.github.com")),
        Commit("Trim the widget cache (#13)", day(20, 11), {"w/cache.py": b"b\n"},
               author=("Ada Lovelace", "ada@acme.dev")),
        Commit("Render gadgets faster (#14)", day(20, 12), {"g/render.py": b"a\n"},
               author=("Bob Babbage", "bob@acme.dev")),
    ])
    d = build_digest(changes, window(20), areas=AreasConfig())
    assert d.counts.authors == 2
    assert {by_number(d, n).author.handle for n in (11, 12, 13)} == {"ada-l"}
    how = {cr.number: (cr.handle, cr.how, cr.recorded) for cr in d.credits}
    assert how[11] == ("ada-l", "author", "ada-l")
    assert how[13] == ("ada-l", "merged identity", "Ada Lovelace")
    assert how[14] == ("Bob Babbage", "author", "Bob Babbage")
    assert all(set(t.authors) <= {"ada-l", "Bob Babbage"} for t in d.themes)


def _ghstack_body(this: int, login: str) -> str:
    return (
        "Stack from [ghstack](https://github.com/ezyang/ghstack) (oldest at bottom):\n"
        + "".join(f"* {'__->__ ' if n == this else ''}#{n}\n" for n in (203, 202, 201))
        + f"\nKeep the widget cache warm across reloads, part {this - 200}.\n\n"
        f"ghstack PR number: https://github.com/acme/widgets/pull/{this} by @{login}\n"
        f"ghstack-source-id: 9{this}\n"
        f"Pull Request resolved: https://github.com/acme/widgets/pull/{this}\n"
    )


def test_bot_landed_ghstack_stack_is_its_authors_and_a_related_fix_is_not(make_repo):
    stack = [
        Commit(msg(f"[cache] Warm widget cache, step {n - 200} (#{n})", _ghstack_body(n, "ada-l")),
               day(21, 8 + n - 201), {f"w/cache{n}.py": b"x\n" * 30}, author=BOT)
        for n in (201, 202, 203)
    ]
    changes = changes_of(make_repo, [
        *stack,
        Commit(msg("[cache] Fix widget cache eviction on reload (#210)",
                   "Keep the widget cache warm across reloads: do not evict on reload."),
               day(21, 12), {"w/cache201.py": b"y\n"}, author=("Bob Babbage", "bob@acme.dev")),
    ])
    d = build_digest(changes, window(21), areas=AreasConfig())
    theme = next(t for t in d.themes if t.stack is not None)
    assert theme.stack.members == (201, 202, 203)
    assert theme.stack.authors == ("ada-l",)  # the owner, never the bot nor Bob
    assert theme.authors[0] == "ada-l" and "PyTorch MergeBot" not in theme.authors
    assert {cr.how for cr in d.credits if cr.number in (201, 202, 203)} == {"ghstack"}
    assert d.counts.authors == 2


def test_real_author_from_email_resolved_pr_and_co_author(make_repo):
    changes = changes_of(make_repo, [
        Commit("Teach the loader to retry (#30)", day(22, 8), {"w/a.py": b"a\n"},
               author=("Ada Lovelace", "ada@acme.dev")),
        # a bot's name over the real person's email
        Commit("Speed up gadget rendering (#31)", day(22, 9), {"g/b.py": b"a\n"},
               author=("pytorchmergebot", "ada@acme.dev")),
        # an import by a bot, with the person in a Co-authored-by trailer
        Commit(msg("Port the gadget parser (#32)",
                   "Summary: port it.\n\nCo-authored-by: CodemodService Bot <cm@bots.example>\n"
                   "Co-authored-by: Bob Babbage <bob@acme.dev>"),
               day(22, 10), {"g/c.py": b"a\n"},
               author=("Facebook Community Bot", "facebook-github-bot@users.noreply.github.com")),
        Commit("Bump numpy from 1.2 to 1.3 (#33)", day(22, 11), {"requirements.txt": b"n\n"},
               author=("dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com")),
        Commit("Release 1.4 (#34)", day(22, 12), {"VERSION": b"1.4\n"},
               author=("acme-release-bot", "release@acme.dev")),
    ])
    d = build_digest(changes, window(22), areas=AreasConfig(), bots=("acme-release-bot",))
    how = {cr.number: (cr.handle, cr.how) for cr in d.credits}
    assert how[31] == ("Ada Lovelace", "author email")
    assert how[32] == ("Bob Babbage", "co-author")
    assert how[33] == ("", "bot") and how[34] == ("", "bot")
    credited = {a for t in d.themes for a in t.authors}
    assert credited == {"Ada Lovelace", "Bob Babbage"}
    assert not any(n in t.prs for t in d.themes for n in (33, 34))  # bots' work is no theme
    assert d.counts.authors == 2


def test_credit_of_a_bot_commit_names_the_pr_it_resolved():
    bots = bot_names()
    human = Change(repo="acme/widgets", title="Warm cache", number=40,
                   author=Person(login="ada-l"), state=State.OPEN)
    landed = Change(repo="acme/widgets", title="Warm cache", number=41, state=State.LANDED,
                    author=Person(name="pytorchbot", email="pytorchbot@users.noreply.github.com"),
                    body="Pull Request resolved: https://github.com/acme/widgets/pull/40")
    assert credit_of(landed, bots, {("acme/widgets", 40): human.author}) == \
        (Person(login="ada-l"), "resolved pr")
    assert credit_of(landed, bots, {}) == (None, "bot")
    joined = Change(repo="acme/widgets", title="x", number=42, state=State.LANDED, bot=True,
                    author=Person(login="ada-l", name="PyTorch MergeBot",
                                  email="pytorchmergebot@users.noreply.github.com"))
    assert credit_of(joined, bots, {}) == (Person(login="ada-l"), "pr author")


def test_a_family_of_tool_accounts_is_one_bot_entry_and_never_credited():
    # Meta's codemod tools land commits as "generatedunixname<number>", one per tool.
    tool = Change(repo="acme/widgets", title="suppress errors in `widgets`", shas=("a" * 40,),
                  state=State.LANDED,
                  author=Person(name="generatedunixname4242",
                                email="generatedunixname4242@acme.dev"))
    assert credit_of(tool, bot_names(), {}) == (None, "bot")
    # a configured family works the same; a name that only shares a word with it is a person
    runner = Change(repo="acme/widgets", title="Bump lockfile", shas=("b" * 40,),
                    state=State.LANDED, author=Person(login="ci-runner-7"))
    assert credit_of(runner, bot_names(["ci-runner-*"]), {}) == (None, "bot")
    person = Change(repo="acme/widgets", title="Warm cache", shas=("c" * 40,), state=State.LANDED,
                    author=Person(login="ci-run"))
    assert credit_of(person, bot_names(["ci-runner-*"]), {}) == (Person(login="ci-run"), "author")


def test_identities_join_on_email_login_and_full_name_but_not_on_first_names():
    people = [Person(login="ada-l"), Person(name="Ada Lovelace", email="4242+ada-l@users."
                                                                       "noreply.github.com"),
              Person(name="ada lovelace", email="ada@acme.dev"), Person(name="Ada"),
              Person(name="Ada", email="other@acme.dev")]
    ids = Identities(people)
    assert len({ids.root(p) for p in people[:3]}) == 1
    assert ids.root(people[3]) != ids.root(people[0])
    assert ids.canonical(people[2]) == Person(login="ada-l", name="Ada Lovelace",
                                              email="ada@acme.dev")

from mergecast.writing.numbers import (
    join_clauses,
    number_words,
    pr_list,
    pr_numbers,
    with_article,
)


def test_through_only_for_a_contiguous_run():
    assert pr_list([12, 9, 10, 11]) == "PRs 9 through 12"
    assert pr_list([5, 7, 9, 12]) == "PRs 5, 7, 9 and 12"
    assert pr_list(range(5, 45, 4)) == "PRs from 5 to 41"
    assert pr_numbers(range(5, 45, 4)) == "from 5 to 41"
    assert pr_numbers([5, 9]) == "5 and 9" and pr_list([7]) == "PR 7"


def test_a_number_takes_the_article_its_sound_needs():
    said = [with_article(f"{number_words(n)}-line fix") for n in (1, 4, 8, 11, 18)]
    assert said == ["a one-line fix", "a four-line fix", "an eight-line fix",
                    "an eleven-line fix", "an eighteen-line fix"]


def test_a_clause_with_its_own_and_is_joined_after_a_comma():
    # "adds the tracker and adds the docs and a test" hears the docs and the test as the
    # tracker's list; the comma says where the list of clauses goes on
    assert join_clauses(["adds the tracker", "adds the docs and a test"]) == \
        "adds the tracker, and adds the docs and a test"
    assert join_clauses(["fixes A and B", "adds C", "drops D"]) == \
        "fixes A and B, adds C, and drops D"
    assert join_clauses(["fixes A", "adds C"]) == "fixes A and adds C"
    assert join_clauses(["fixes A"]) == "fixes A"
    # … and so is one after a clause ending on a "with" ("a test and separates" is no list)
    assert join_clauses(["adds zorb scale with a test", "separates the wib"]) == \
        "adds zorb scale with a test, and separates the wib"
    assert join_clauses(["fixes A", "adds zorb scale with a test"]) == \
        "fixes A and adds zorb scale with a test"

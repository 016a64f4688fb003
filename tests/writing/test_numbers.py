from mergecast.writing.numbers import number_words, pr_list, pr_numbers, with_article


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

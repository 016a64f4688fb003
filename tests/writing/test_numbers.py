from mergecast.writing.numbers import pr_list, pr_numbers


def test_through_only_for_a_contiguous_run():
    assert pr_list([12, 9, 10, 11]) == "PRs 9 through 12"
    assert pr_list([5, 7, 9, 12]) == "PRs 5, 7, 9 and 12"
    assert pr_list(range(5, 45, 4)) == "PRs from 5 to 41"
    assert pr_numbers(range(5, 45, 4)) == "from 5 to 41"
    assert pr_numbers([5, 9]) == "5 and 9" and pr_list([7]) == "PR 7"

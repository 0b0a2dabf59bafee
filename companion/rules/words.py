"""Numbers and phrases as players say them aloud."""

from __future__ import annotations

_ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def number_words(n: int) -> str:
    """``number_words(21) == "twenty-one"``; works from 0 to 999.

    >>> number_words(121)
    'one hundred twenty-one'
    """
    if n < 0:
        return "minus " + number_words(-n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + ("-" + _ONES[ones] if ones else "")
    hundreds, rest = divmod(n, 100)
    return _ONES[hundreds] + " hundred" + (" " + number_words(rest) if rest else "")


def sentence(text: str) -> str:
    """Capitalise the first letter only."""
    return text[:1].upper() + text[1:]

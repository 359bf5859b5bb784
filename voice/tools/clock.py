"""The clock tool: time, date, weekday, days until a date, and the time zone — in the machine's
local time zone, said in words ("it's four oh five PM", "Christmas is in twenty two days")."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta
from fractions import Fraction

from words.calendar import MONTHS, WEEKDAYS, date_words, time_words, year_words
from words.quantity import read_number, read_ordinal
from words.spoken import int_words, ordinal_words

_MONTH_ABBR = {m.lower()[:3]: i + 1 for i, m in enumerate(MONTHS)} | {"sept": 9}


def _easter(year: int) -> date:
    """Western Easter Sunday (the anonymous Gregorian algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    m = (32 + 2 * e + 2 * i - h - k) % 7
    n = (a + 11 * h + 22 * m) // 451
    month, day = divmod(h + m - 7 * n + 114, 31)
    return date(year, month, day + 1)


# spoken names → (the name said back, date in a given year)
EVENTS: dict[str, tuple[str, Callable[[int], date]]] = {
    "christmas": ("Christmas", lambda y: date(y, 12, 25)),
    "christmas day": ("Christmas", lambda y: date(y, 12, 25)),
    "xmas": ("Christmas", lambda y: date(y, 12, 25)),
    "christmas eve": ("Christmas Eve", lambda y: date(y, 12, 24)),
    "boxing day": ("Boxing Day", lambda y: date(y, 12, 26)),
    "new year": ("New Year's Day", lambda y: date(y, 1, 1)),
    "new years": ("New Year's Day", lambda y: date(y, 1, 1)),
    "new year's": ("New Year's Day", lambda y: date(y, 1, 1)),
    "new year's day": ("New Year's Day", lambda y: date(y, 1, 1)),
    "new years day": ("New Year's Day", lambda y: date(y, 1, 1)),
    "the new year": ("New Year's Day", lambda y: date(y, 1, 1)),
    "new year's eve": ("New Year's Eve", lambda y: date(y, 12, 31)),
    "new years eve": ("New Year's Eve", lambda y: date(y, 12, 31)),
    "halloween": ("Halloween", lambda y: date(y, 10, 31)),
    "valentine's day": ("Valentine's Day", lambda y: date(y, 2, 14)),
    "valentines day": ("Valentine's Day", lambda y: date(y, 2, 14)),
    "valentines": ("Valentine's Day", lambda y: date(y, 2, 14)),
    "st patrick's day": ("Saint Patrick's Day", lambda y: date(y, 3, 17)),
    "saint patrick's day": ("Saint Patrick's Day", lambda y: date(y, 3, 17)),
    "st patricks day": ("Saint Patrick's Day", lambda y: date(y, 3, 17)),
    "easter": ("Easter", _easter),
    "easter sunday": ("Easter", _easter),
    "easter monday": ("Easter Monday", lambda y: _easter(y) + timedelta(days=1)),
    "good friday": ("Good Friday", lambda y: _easter(y) - timedelta(days=2)),
    "pancake day": ("Pancake Day", lambda y: _easter(y) - timedelta(days=47)),
    "shrove tuesday": ("Shrove Tuesday", lambda y: _easter(y) - timedelta(days=47)),
    "april fools' day": ("April Fools' Day", lambda y: date(y, 4, 1)),
    "april fools day": ("April Fools' Day", lambda y: date(y, 4, 1)),
    "april fools": ("April Fools' Day", lambda y: date(y, 4, 1)),
    "april fool's day": ("April Fools' Day", lambda y: date(y, 4, 1)),
    "bonfire night": ("Bonfire Night", lambda y: date(y, 11, 5)),
    "guy fawkes night": ("Bonfire Night", lambda y: date(y, 11, 5)),
    "guy fawkes": ("Bonfire Night", lambda y: date(y, 11, 5)),
    "burns night": ("Burns Night", lambda y: date(y, 1, 25)),
    "st george's day": ("Saint George's Day", lambda y: date(y, 4, 23)),
    "st georges day": ("Saint George's Day", lambda y: date(y, 4, 23)),
    "st andrew's day": ("Saint Andrew's Day", lambda y: date(y, 11, 30)),
    "st david's day": ("Saint David's Day", lambda y: date(y, 3, 1)),
    "remembrance day": ("Remembrance Day", lambda y: date(y, 11, 11)),
    "armistice day": ("Armistice Day", lambda y: date(y, 11, 11)),
    "groundhog day": ("Groundhog Day", lambda y: date(y, 2, 2)),
    "earth day": ("Earth Day", lambda y: date(y, 4, 22)),
    "canada day": ("Canada Day", lambda y: date(y, 7, 1)),
    "independence day": ("Independence Day", lambda y: date(y, 7, 4)),
    "the fourth of july": ("July fourth", lambda y: date(y, 7, 4)),
    "thanksgiving": ("Thanksgiving", lambda y: _nth_weekday(y, 11, 3, 4)),  # US: 4th Thursday
    "the weekend": ("Saturday", None),  # handled as a weekday below
}  # fmt: skip


def _nth_weekday(year: int, month: int, wd: int, n: int) -> date:
    """The ``n``th weekday ``wd`` (0 = Monday) of a month: Thanksgiving is the 4th Thursday."""
    first = date(year, month, 1)
    return first + timedelta(days=(wd - first.weekday()) % 7 + 7 * (n - 1))


def _next_weekday(today: date, wd: int) -> date:
    return today + timedelta(days=(wd - today.weekday()) % 7 or 7)


def parse_date(text: str, today: date) -> tuple[str, date] | None:
    """(name to say, the next such date from ``today``) for "christmas", "march third",
    "the 4th of july", "july 4", "friday", "12/25"... or None."""
    t = str(text).lower().replace("’", "'").strip(" ?.!,")
    t = re.sub(r"^(the )?(next |this )", "", t)
    if (m := re.fullmatch(r"(.+?),?(?: in)? ((?:1[6-9]|2\d)\d\d)", t)) and m[1] in EVENTS and \
            EVENTS[m[1]][1] is not None:  # "christmas 2027", "easter in 2028"  # fmt: skip
        name, fn = EVENTS[m[1]]
        return f"{name} {m[2]}", fn(int(m[2]))
    if t in EVENTS:
        name, fn = EVENTS[t]
        if fn is None:
            return "the weekend", _next_weekday(today, 5)
        d = fn(today.year)
        if d < today:
            d = fn(today.year + 1)
        return name, d
    for i, wd in enumerate(WEEKDAYS):
        if t in (wd.lower(), wd.lower() + "s"):
            return wd, _next_weekday(today, i)
    words = re.sub(r"[,]", " ", t).split()
    month = day = year = None
    rest = []
    if len(words) > 1 and re.fullmatch(r"(?:1[6-9]|2[0-9])\d\d", words[-1]):
        year = int(words.pop())  # "18 march 2028", "December 3rd, 2027"
        words = words[:-1] if words[-1:] == ["in"] else words  # "december 3rd in 2027"
    for w in words:
        if w[:3] in _MONTH_ABBR and (w in _MONTH_ABBR or w.startswith(tuple(
                m.lower() for m in MONTHS)) or w == "sept"):  # fmt: skip
            month = _MONTH_ABBR[w[:3]]
        elif w not in ("the", "of"):
            rest.append(w)
    if month is None:
        m = re.fullmatch(r"(\d{1,2})[/.-](\d{1,2})", t)
        if m:
            month, day = int(m.group(1)), int(m.group(2))
    else:
        day = _read_day(rest)
    if month is None or day is None:
        return None
    if year is not None:  # a date of a given year, past or future
        try:
            return f"{MONTHS[month - 1]} {ordinal_words(day)}, {year_words(year)}", \
                date(year, month, day)  # fmt: skip
        except ValueError:
            return None
    for y in (today.year, today.year + 1):
        try:
            d = date(y, month, day)
        except ValueError:
            return None
        if d >= today:
            return f"{MONTHS[month - 1]} {ordinal_words(day)}", d
    return None


_OFFSET = re.compile(r"^(?:in |after )?(.+?) (days?|weeks?|fortnights?)"
                     r"(?: (from now|from today|from|later|later on|time|on|ahead|hence|ago|back|"
                     r"before today|earlier))?$")  # fmt: skip


ELSEWHERE = ("sorry, I only know the time here, not in other places; I can tell the time, the "
             "date, the day and the days until a date")


def offset_days(text: object) -> int | None:
    """Days from today that ``text`` names: "tomorrow" 1, "yesterday" -1, "the day after
    tomorrow" 2, "in 54 days" and "54 days from now" 54, "three weeks from today" 21, "a
    fortnight" 14, "ten days ago" -10; None for anything else."""
    t = re.sub(r"\s+", " ", str(text or "").lower()).strip(" ?.!,")
    fixed = {"today": 0, "tomorrow": 1, "yesterday": -1, "day after tomorrow": 2,
             "the day after tomorrow": 2, "day before yesterday": -2,
             "the day before yesterday": -2, "a fortnight": 14, "in a fortnight": 14,
             "a week": 7, "in a week": 7, "a week from today": 7, "a week today": 7}  # fmt: skip
    if t in fixed:
        return fixed[t]
    m = _OFFSET.match(t)
    if m is None:
        return None
    ws = m[1].split()
    got = read_number(ws, 0) if ws != ["a"] else (1, 1)
    if got is None or got[1] != len(ws) or Fraction(got[0]).denominator != 1 or got[0] > 100_000:
        return None
    per = {"d": 1, "w": 7, "f": 14}[m[2][0]]
    n = int(got[0]) * per
    return -n if m[3] in ("ago", "back", "before today", "earlier") else n


def _read_day(words: list[str]) -> int | None:
    """The day of a month: "third", "twenty first", "21st", "21"."""
    got = read_ordinal(words, 0) or read_number(words, 0)
    if got is not None and got[1] == len(words) and Fraction(got[0]).denominator == 1:
        return int(got[0])
    return None


def zone_name(now: datetime) -> str:
    """The local time zone's name as said: "Central European Time", "UTC"."""
    name = now.tzname() or "UTC"
    full = {
        "UTC": "Coordinated Universal Time", "GMT": "Greenwich Mean Time",
        "CET": "Central European Time", "CEST": "Central European Summer Time",
        "BST": "British Summer Time", "EST": "Eastern Standard Time",
        "EDT": "Eastern Daylight Time", "PST": "Pacific Standard Time",
        "PDT": "Pacific Daylight Time", "CST": "Central Standard Time",
        "CDT": "Central Daylight Time", "MST": "Mountain Standard Time",
        "JST": "Japan Standard Time", "IST": "India Standard Time",
    }  # fmt: skip
    if name in full:
        return full[name]
    off = now.utcoffset()
    if off is None:
        return name
    mins = int(off.total_seconds() // 60)
    sign = "plus" if mins >= 0 else "minus"
    h, m = divmod(abs(mins), 60)
    return f"UTC {sign} {int_words(h)}" + (f" {int_words(m)}" if m else "")


class Clock:
    """Answers from the local clock; ``now`` is injectable for tests."""

    def __init__(self, now: Callable[[], datetime] | None = None) -> None:
        self.now = now or (lambda: datetime.now().astimezone())

    def ask(self, what: str = "time", date_text: str | None = None) -> tuple[str, bool]:
        now = self.now()
        what = str("time" if what is None else what).lower().strip()
        if not what:  # a bare call on a request that asks nothing of the clock
            return "sorry, I can tell the time, the date, the day and the days until a date", \
                False  # fmt: skip
        if what in ("time", "now", "hour"):
            return f"it's {time_words(now.hour, now.minute)}", True
        shift = offset_days(date_text) or 0
        if shift and what in ("date", "today", "year", "month", "day", "weekday",
                              "day of the week"):  # fmt: skip
            d = now.date() + timedelta(days=shift)
            if abs(shift) > 1:  # "in fifty four days it will be Thursday, January ..."
                when = f"in {int_words(shift)} days it will be" if shift > 0 else \
                    f"{int_words(-shift)} days ago it was"  # fmt: skip
                return f"{when} {date_words(d)}", True
            said = date_words(d) if what not in ("day", "weekday", "day of the week") \
                else WEEKDAYS[d.weekday()]  # fmt: skip
            return f"{'tomorrow will be' if shift > 0 else 'yesterday was'} {said}", True
        if what in ("weekday of", "day of", "weekday_of") or (
                date_text and what in ("day", "weekday", "day of the week")):  # fmt: skip
            got = parse_date(date_text or "", now.date())
            if got is None:
                return f"sorry, I don't know when {str(date_text)[:40]} is; I know dates " \
                    "like march third and holidays like christmas", False
            name, d = got
            verb = "is" if d >= now.date() else "was"
            if name.split()[0] in MONTHS:  # "March eighteenth, twenty twenty eight is a Saturday"
                return f"{name} {verb} a {WEEKDAYS[d.weekday()]}", True
            day = f"{MONTHS[d.month - 1]} {ordinal_words(d.day)}"  # a holiday: its date too
            return f"{name} {verb} on {WEEKDAYS[d.weekday()]}, {day}", True
        if what in ("date", "today", "year", "month"):
            return f"today is {date_words(now.date())}", True
        if what in ("day", "weekday", "day of the week"):
            return f"today is {WEEKDAYS[now.weekday()]}", True
        if what == "elsewhere":  # "what time is it in Bangkok": no clock of other places
            return ELSEWHERE, False
        if what in ("zone", "timezone", "time zone"):
            return f"the time zone here is {zone_name(now)}", True
        if what == "when" and date_text and (got := parse_date(date_text, now.date())):
            name, d = got  # "when is easter": "Easter is on Sunday, April fifth, in ... days"
            n = (d - now.date()).days
            on = f"{WEEKDAYS[d.weekday()]}, {MONTHS[d.month - 1]} {ordinal_words(d.day)}"
            when = "today" if n == 0 else "tomorrow" if n == 1 else \
                f"in {int_words(n)} days" if n > 0 else f"{int_words(-n)} days ago"  # fmt: skip
            return f"{name} {'was' if n < 0 else 'is'} on {on}, {when}", True
        if what in ("until", "days until", "days_until", "countdown", "when"):
            if not date_text:
                return "sorry, I need a date to count to, like march third or christmas", False
            got = parse_date(date_text, now.date())
            if got is None:
                return f"sorry, I don't know when {str(date_text)[:40]} is; I know dates " \
                    "like march third and holidays like christmas", False
            name, d = got
            n = (d - now.date()).days
            if n < 0:  # a date of a given year that has gone
                return f"{name} was {int_words(-n)} days ago", True
            if n == 0:
                return f"{name} is today", True
            if n == 1:
                return f"{name} is tomorrow", True
            return f"{name} is in {int_words(n)} days", True
        return f"sorry, the clock can't tell {what[:40]}; I can tell the time, the date, the " \
            "day and the days until a date", False

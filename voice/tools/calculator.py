"""The calculator tool: arithmetic over spoken or written expressions, exact, without ``eval``.

``calculate("seventeen times twenty three")`` → ``"seventeen times twenty three is three hundred
and ninety one"``. The expression is read into words (symbols become words: ``+`` → plus, ``x``
between numbers → times, ``%`` → percent), parsed by a small recursive-descent parser into a
tree, and the tree is evaluated with exact fractions; only square and cube roots and fractional
powers are inexact (said with "about"). Division by zero and numbers too large to say get a
plain sentence instead of a result.

Grammar (precedence from loose to tight)::

    expr    := term (("plus" | "minus") term)*
    term    := power (("times" | "divided by" | "over" | "percent of") power)*
    power   := unary ("squared" | "cubed" | "square" | "cube" | "to the power of" unary
               | "to the" ordinal)*
    unary   := "minus" unary | "the square root of" unary | "the cube root of" unary
             | "half of" unary | "double" unary | "the square of" unary | "the cube of" unary
             | number ["percent"] | "that" | "(" expr ")"

plus the verb forms people use: "add A and B", "add A to B", "subtract A from B", "multiply A by
B", "divide A by B", "the sum/product of A and B", "the difference between A and B". An
expression that starts with an operator ("times two", "add five", "divide by four") applies to
``that``: the last result, which the calculator keeps (one per conversation).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from words.quantity import read_number, read_ordinal, spoken_text
from words.spoken import SAYABLE, TooLarge, fraction_words, number_words, plain_words


class CalcError(ValueError):
    """An expression the calculator cannot read; the message is what to say."""


# What an unreadable request is told the calculator does (one clause, after the reason).
CAN = "I can add, subtract, multiply, divide, and do percentages, powers and roots"


class DivisionByZero(ArithmeticError):
    pass


# Synonyms → canonical operator words (longest phrases first when matching).
_PHRASES = [
    ("multiplied by", "times"), ("divided by", "divided_by"), ("divide by", "divided_by"),
    ("to the power of", "pow"), ("to the power", "pow"), ("raised to the power of", "pow"),
    ("raised to the", "pow"), ("to the", "pow"),
    ("square root of", "sqrt"), ("the square root of", "sqrt"), ("root of", "sqrt"),
    ("cube root of", "cbrt"), ("the cube root of", "cbrt"),
    ("percent of", "pct_of"), ("per cent of", "pct_of"), ("percent", "pct"), ("per cent", "pct"),
    ("take away", "minus"), ("less", "minus"), ("subtracted from", "subtracted_from"),
    ("taken away from", "subtracted_from"), ("taken from", "subtracted_from"),
    ("added to", "plus"), ("lots of", "times"), ("split between", "divided_by"),
    ("shared between", "divided_by"), ("split into", "divided_by"), ("split", "divided_by"),
    ("half of", "half"), ("a half of", "half"), ("one half of", "half"),
    ("double", "double"), ("twice", "double"), ("triple", "triple"),
    ("the sum of", "sum_of"), ("sum of", "sum_of"), ("the product of", "product_of"),
    ("product of", "product_of"), ("the difference between", "diff_of"),
    ("difference between", "diff_of"), ("the difference of", "diff_of"),
    ("squared", "squared"), ("cubed", "cubed"), ("square", "squared"), ("cube", "cubed"),
    ("the square of", "square_of"), ("square of", "square_of"), ("the cube of", "cube_of"),
    ("cube of", "cube_of"), ("times", "times"), ("x", "times"),
    ("multiply", "multiply"), ("divide", "divide"), ("add", "add"), ("subtract", "subtract"),
    ("plus", "plus"), ("minus", "minus"), ("over", "divided_by"), ("into", "times"),
    ("root", "sqrt"), ("sqrt", "sqrt"),
    ("more than", "plus"), ("less than", "subtracted_from"), ("groups of", "times"),
    ("sets of", "times"), ("the total of", "sum_of"), ("total of", "sum_of"),
    ("divided equally between", "divided_by"), ("divided equally among", "divided_by"),
    ("divided between", "divided_by"), ("divided among", "divided_by"),
    ("shared among", "divided_by"), ("shared equally between", "divided_by"),
    ("shared equally among", "divided_by"), ("split among", "divided_by"), ("take", "subtract"),
    ("halved", "halved"), ("doubled", "doubled"), ("tripled", "tripled"),
    ("add up", "add"), ("add together", "add"), ("multiply together", "multiply"),
    # as learners of English say them (calques of "divide on", "in the power", "percent from")
    ("divide on", "divided_by"), ("divided on", "divided_by"), ("multiplied on", "times"),
    ("in the power of", "pow"), ("in the power", "pow"), ("to power", "pow"),
    ("percents of", "pct_of"), ("percents from", "pct_of"), ("percent from", "pct_of"),
    ("per cent from", "pct_of"), ("percents", "pct"), ("halve", "half"), ("take off", "minus"),
    ("is added to", "plus"), ("is taken from", "subtracted_from"), ("is multiplied by", "times"),
    ("is divided by", "divided_by"), ("dividing", "divide"), ("multiplying", "multiply"),
    ("adding", "add"), ("subtracting", "subtract"),
]  # fmt: skip
_PHRASES.sort(key=lambda p: -len(p[0].split()))
_THAT = {"that", "it", "this", "ans", "the answer", "the result", "that number", "the total",
         "the same"}
_FILLER = {
    "what", "what's", "whats", "is", "how", "much", "calculate", "compute", "please", "now",
    "okay", "ok", "so", "then", "and", "equals", "equal", "exactly", "make", "makes", "the",
    "answer", "tell", "me", "can", "you", "could", "work", "out", "do", "does", "come",
    "ways", "power", "people", "are", "if",
}  # fmt: skip
# "seven sixes": seven times six, as times tables are said
_PLURALS = {"twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6, "sevens": 7, "eights": 8,
            "nines": 9, "tens": 10, "elevens": 11, "twelves": 12}  # fmt: skip
_INFIX = {"multiply": "times", "divide": "divided_by", "add": "plus", "subtract": "minus"}
_SCALED = {"halved": ("divided_by", 2), "doubled": ("times", 2), "tripled": ("times", 3)}
_SAY = {"plus": "plus", "minus": "minus", "times": "times", "divided_by": "divided by"}


# --- the tree ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Num:
    value: Fraction

    def say(self) -> str:
        return plain_words(self.value)


@dataclass(frozen=True)
class Bin:
    op: str  # plus minus times divided_by pct_of of pow
    left: object
    right: object
    word: str = ""  # how a power was said: "squared", "cubed" (else "to the power of")

    def say(self) -> str:
        if self.op == "pct_of":
            return f"{_say(self.left)} percent of {_say(self.right)}"
        if self.op == "of":  # "a third of ninety"
            left = isinstance(self.left, Num) and fraction_words(self.left.value)
            return f"{left or _say(self.left)} of {_say(self.right)}"
        if self.op == "pow":
            if self.word:
                return f"{_say(self.left)} {self.word}"
            return f"{_say(self.left)} to the power of {_say(self.right)}"
        left, right = _say(self.left), _say(self.right)
        if self.op in ("times", "divided_by"):
            if _loose(self.left):
                left = f"({left})"
            if _loose(self.right):
                right = f"({right})"
        elif self.op == "minus" and _loose(self.right):
            right = f"({right})"
        return f"{left} {_SAY[self.op]} {right}"


def _loose(node) -> bool:
    return isinstance(node, Bin) and node.op in ("plus", "minus")


@dataclass(frozen=True)
class Un:
    op: str  # neg sqrt cbrt pct
    arg: object

    def say(self) -> str:
        if self.op == "neg":
            return f"minus {_say(self.arg)}"
        if self.op == "pct":
            return f"{_say(self.arg)} percent"
        return f"the {'square' if self.op == 'sqrt' else 'cube'} root of {_say(self.arg)}"


def _say(node) -> str:
    return node.say()


def evaluate(node) -> tuple[Fraction, bool]:
    """(value, exact). Raises DivisionByZero, TooLarge."""
    if isinstance(node, Num):
        return node.value, True
    if isinstance(node, Un):
        v, ex = evaluate(node.arg)
        if node.op == "neg":
            return -v, ex
        if node.op == "pct":
            return v / 100, ex
        if node.op == "sqrt":
            if v < 0:
                raise CalcError("negative numbers have no real square root")
            r = _exact_root(v, 2)
            return (r, ex) if r is not None else (Fraction(math.sqrt(v)), False)
        r = _exact_root(abs(v), 3)
        if r is not None:
            return (r if v >= 0 else -r), ex
        return Fraction(math.copysign(abs(float(v)) ** (1 / 3), float(v))), False
    a, ea = evaluate(node.left)
    b, eb = evaluate(node.right)
    ex = ea and eb
    op = node.op
    if op in ("plus", "minus") and isinstance(node.right, Un) and node.right.op == "pct" \
            and not (isinstance(node.left, Un) and node.left.op == "pct"):  # fmt: skip
        b = a * b  # "24.50 minus 10%", "take 10% off that": a tenth of 24.50, as calculators do
    if op == "plus":
        return a + b, ex
    if op == "minus":
        return a - b, ex
    if op == "times":
        return _check(a * b), ex
    if op == "divided_by":
        if b == 0:
            raise DivisionByZero
        return a / b, ex
    if op == "pct_of":
        return a * b / 100, ex
    if op == "of":
        return _check(a * b), ex
    # power
    if b.denominator == 1:
        e = int(b)
        if a == 0 and e < 0:
            raise DivisionByZero
        if abs(a) > 1 and abs(e) * math.log10(abs(a)) > 16:
            raise TooLarge("power too large")
        if abs(e) > 10_000:  # a is 0, 1 or -1 here, or a fraction: keep the work bounded
            return Fraction(float(a) ** e), False
        return _check(a**e), ex
    if a < 0:
        raise CalcError("a negative number to a fractional power is not a real number")
    try:
        return _check(Fraction(float(a) ** float(b))), False
    except OverflowError:
        raise TooLarge("power too large") from None


def _exact_root(v: Fraction, n: int) -> Fraction | None:
    def iroot(x: int) -> int | None:
        r = round(x ** (1 / n))
        for c in (r - 1, r, r + 1):
            if c >= 0 and c**n == x:
                return c
        return None

    if v < 0:
        return None
    num, den = iroot(v.numerator), iroot(v.denominator)
    return Fraction(num, den) if num is not None and den is not None else None


def _check(v: Fraction) -> Fraction:
    if abs(v) >= SAYABLE * 10**6:  # far past sayable: stop before the numbers get huge
        raise TooLarge("too large")
    return v


# --- reading ----------------------------------------------------------------------------------
def words_of(text: str) -> list[str]:
    """Lower-case words with symbols spelt out: ``"17x23" → ["17", "times", "23"]``."""
    t = spoken_text(text)  # "1,000" → "1000", "3hours" → "3 hours"
    t = t.replace("×", " times ").replace("÷", " divided by ").replace("√", " sqrt ")
    t = re.sub(r"(?<=[\d\s])[x*](?=[\s\d])", " times ", t)
    t = re.sub(r"\*\*|\^", " to the power of ", t)
    t = t.replace("%", " percent ").replace("+", " plus ").replace("/", " divided by ")
    t = t.replace("=", " equals ")
    t = re.sub(r"\b(\d+(?:\.\d+)?) ?k\b", lambda m: str(round(float(m.group(1)) * 1000)), t)
    t = re.sub(r"(?<![\d.])-(?=\s*[\d.])", " minus ", t)  # a leading/unary minus
    t = re.sub(r"(?<=[\d\s])-(?=\s)", " minus ", t)
    t = t.replace("(", " ( ").replace(")", " ) ")
    t = re.sub(r"[?!,;:\"]|(?<!\d)\.(?!\d)", " ", t)
    return t.split()


def _tokens(words: list[str]) -> list[tuple[str, object]]:
    """(kind, value) tokens: ("num", Fraction), ("op", name), ("that", None), ("(", None)."""
    out: list[tuple[str, object]] = []
    i, n = 0, len(words)
    while i < n:
        w = words[i]
        if w in ("(", ")"):
            out.append((w, None))
            i += 1
            continue
        for phrase in sorted(_THAT, key=lambda p: -len(p.split())):
            p = phrase.split()
            if words[i : i + len(p)] == p and words[i + len(p) : i + len(p) + 1] != ["of"]:
                out.append(("that", None))
                i += len(p)
                break
        else:
            power = read_ordinal(words, i) if out and out[-1] == ("op", "pow") else None
            if power is not None:  # "two to the third (power)", "ten to the 6th"
                out.append(("num", Fraction(power[0])))
                i = power[1]
                continue
            if w in _PLURALS and out and out[-1][0] == "num":
                out += [("op", "times"), ("num", Fraction(_PLURALS[w]))]
                i += 1
                continue
            num = read_number(words, i)
            if num is not None and not (words[i] in ("minus", "negative") and out
                                        and out[-1][0] in ("num", "that", ")")):
                value, i = num
                out.append(("num", value))
                if i < n and words[i] == "of" and i + 1 < n and words[i + 1] != "the" \
                        and abs(value) < 1:  # fmt: skip
                    out.append(("op", "of"))  # "a third of ninety" (not "25 of 400")
                    i += 1
                continue
            for phrase, op in _PHRASES:
                p = phrase.split()
                if words[i : i + len(p)] == p:
                    if out and out[-1][0] in ("num", "that", ")"):
                        op = _INFIX.get(op, op)  # "10 multiply 15": between two numbers
                    out.append(("op", op))
                    i += len(p)
                    break
            else:
                if w in _FILLER or w in ("by", "and", "to", "from", "of", "with", "away", "on"):
                    out.append(("word", w))
                    i += 1
                else:
                    raise CalcError(f"I don't know how to calculate with {w!r}; {CAN}")
    return out


class _Parser:
    def __init__(self, toks: list[tuple[str, object]], that: Fraction | None) -> None:
        self.t = toks
        self.i = 0
        self.that = that

    def peek(self, k: int = 0) -> tuple[str, object]:
        j = self.i + k
        return self.t[j] if j < len(self.t) else ("end", None)

    def take(self, kind: str, value: object = None) -> bool:
        tk, tv = self.peek()
        if tk == kind and (value is None or tv == value):
            self.i += 1
            return True
        return False

    def skip_words(self, *words: str) -> None:
        while self.peek()[0] == "word" and (not words or self.peek()[1] in words):
            self.i += 1

    def that_node(self) -> Num:
        if self.that is None:
            raise CalcError("there is no earlier result to use; say the whole calculation, like "
                           "nine plus sixteen")
        return Num(self.that)

    def parse(self):
        self.skip_words()
        node = self.verb() or self.leading_op()
        if node is None:
            node = self.expr()
        self.skip_words()
        while self.peek()[0] == "op" and self.peek()[1] in ("squared", "cubed", *_SCALED):
            node = self.postfix(node, self.peek()[1])
            self.i += 1
        self.skip_words()
        if self.peek()[0] != "end":
            raise CalcError(f"I couldn't read the whole calculation; {CAN}")
        return node

    def verb(self):
        """"add A and B", "multiply A by B", "subtract A from B", "the sum of A and B"..."""
        kind, op = self.peek()
        if kind != "op" or op not in ("add", "subtract", "multiply", "divide", "sum_of",
                                      "product_of", "diff_of"):  # fmt: skip
            return None
        self.i += 1
        if op == "divide" and self.peek() == ("word", "by"):  # "divide by four"
            self.i += 1
            return Bin("divided_by", self.that_node(), self.expr())
        a = self.expr()
        self.skip_words("with", "away")  # "take five away from nine"
        joiner = self.peek()
        many = op in ("add", "sum_of", "multiply", "product_of")
        # "add 5, 6 and 7": the commas are gone, so the second number follows the first
        listed = many and joiner[0] in ("num", "that", "(")
        if listed or joiner[0] == "word" and joiner[1] in ("and", "by", "to", "from", "on"):
            if not listed:
                self.i += 1
            b = self.expr()
        elif joiner[0] == "op" and joiner[1] == "divided_by" and op == "divide":
            self.i += 1
            b = self.expr()
        else:  # "add five" / "divide by four" / "multiply by three": to the last result
            implicit = {"add": "plus", "subtract": "minus", "multiply": "times",
                        "divide": "divided_by"}  # fmt: skip
            if op not in implicit:
                raise CalcError("I need two numbers for that")
            return Bin(implicit[op], self.that_node(), a)
        if many and (listed or joiner[1] == "and"):  # a list: "the total of 4 and 5 and 6"
            while self.peek()[0] in ("num", "that", "(") or self.take("word", "and"):
                b = Bin("plus" if op in ("add", "sum_of") else "times", a, b)
                a, b = b, self.expr()
        if op in ("add", "sum_of"):
            return Bin("plus", b, a) if joiner[1] == "to" and op == "add" else Bin("plus", a, b)
        if op == "subtract":
            return Bin("minus", b, a) if joiner[1] == "from" else Bin("minus", a, b)
        if op in ("multiply", "product_of"):
            return Bin("times", a, b)
        if op == "divide":
            return Bin("divided_by", a, b)
        return Bin("minus", a, b)  # difference between a and b

    def leading_op(self):
        """"times two", "plus five", "divided by 8", "squared": applies to the last result."""
        kind, op = self.peek()
        if kind == "op" and op in ("times", "plus", "minus", "divided_by", "pct_of", "pow"):
            if op == "minus" and self.peek(1)[0] in ("num", "that") and self.that is None:
                return None  # "minus five" with nothing before it is a negative number
            self.i += 1
            if op in ("times", "divided_by") and self.peek()[0] == "that" \
                    and self.peek(1) == ("word", "by"):
                self.i += 2  # "times it by three": "it" is the last result, named again
            right = self.power() if op in ("times", "divided_by", "pct_of", "pow") else \
                self.term()
            return Bin(op, self.that_node(), right)
        if kind == "op" and op in ("squared", "cubed"):
            self.i += 1
            return Bin("pow", self.that_node(), Num(Fraction(2 if op == "squared" else 3)), op)
        return None

    def expr(self):
        node = self.term()
        while True:
            kind, op = self.peek()
            if kind == "op" and op in ("plus", "minus", "add"):  # "seventeen add five"
                self.i += 1
                node = Bin("plus" if op == "add" else op, node, self.term())
            elif kind == "op" and op == "subtracted_from":
                self.i += 1
                node = Bin("minus", self.term(), node)
            else:
                return node

    def term(self):
        node = self.power()
        while True:
            kind, op = self.peek()
            if kind == "op" and op in ("times", "divided_by", "pct_of", "of"):
                self.i += 1
                node = Bin(op, node, self.power())
            else:
                return node

    def power(self):
        node = self.unary()
        while True:
            kind, op = self.peek()
            if kind == "op" and op in ("squared", "cubed", *_SCALED):
                self.i += 1
                node = self.postfix(node, op)
            elif kind == "op" and op == "pow":
                self.i += 1
                node = Bin("pow", node, self.unary())
            else:
                return node

    @staticmethod
    def postfix(node, op: str):
        """"five squared", "nine cubed", "forty halved", "twelve doubled"."""
        if op in _SCALED:
            how, by = _SCALED[op]
            return Bin(how, node, Num(Fraction(by)))
        return Bin("pow", node, Num(Fraction(2 if op == "squared" else 3)), op)

    def unary(self):
        self.skip_words("the", "of")
        kind, v = self.peek()
        if kind == "op" and v == "minus":
            self.i += 1
            return Un("neg", self.unary())
        if kind == "op" and v in ("sqrt", "cbrt"):
            self.i += 1
            return Un(v, self.unary())
        if kind == "op" and v in ("square_of", "cube_of"):  # "the cube of five"
            self.i += 1
            return self.postfix(self.unary(), "squared" if v == "square_of" else "cubed")
        if kind == "op" and v in ("half", "double", "triple"):
            self.i += 1
            arg = self.unary()
            if v == "half":
                return Bin("divided_by", arg, Num(Fraction(2)))
            return Bin("times", arg, Num(Fraction(2 if v == "double" else 3)))
        if kind == "(":
            self.i += 1
            node = self.expr()
            if not self.take(")"):
                raise CalcError("a bracket is not closed")
            return node
        if kind == "that":
            self.i += 1
            return self.percent(self.that_node())
        if kind == "num":
            self.i += 1
            return self.percent(Num(v))
        raise CalcError(f"I couldn't find the numbers in that; {CAN}")

    def percent(self, node):
        kind, op = self.peek()
        if kind == "op" and op == "pct":
            self.i += 1
            return Un("pct", node)
        return node


@dataclass
class Calculation:
    """A finished calculation: what to say, and the value (None when there is none)."""

    text: str
    value: Fraction | None = None
    ok: bool = True


def go_into(text: str) -> str:
    """ "how many times does A go into B" → "B divided by A"."""
    return re.sub(r"^(?:.*\b)?how many times (?:does |do |will |would |can )?(.+?) "
                  r"(?:go|goes|fit|fits) into (.+?)\W*$", r"\2 divided by \1", text.strip(),
                  flags=re.IGNORECASE)  # fmt: skip


def priced(expression: str) -> str:
    """Shop sums as said: "9 boxes at $14 each" → "9 times $14", "a 25% tip on a $32 check" →
    "25% of $32" (a tip, tax, discount or service charge on an amount is that percent of it),
    "20% off £45" → "£45 minus 20%" (which takes a fifth of £45 off)."""
    e = re.sub(r"\b(\S+)\s+(?:[a-z]+\s+){0,2}at\s+(\S+)\s+(?:[a-z]+\s+)?"
               r"(?:each|apiece|a piece|per \w+)\b",
               r"\1 times \2", expression, flags=re.IGNORECASE)  # fmt: skip
    e = re.sub(r"\b(\S+?)\s*(%|percent|per cent)\s+off\s+(?:an?\s+|the\s+)?([$£€]?[\d.,]+)",
               r"\3 minus \1\2", e, flags=re.IGNORECASE)  # "20% off £45"  # fmt: skip
    e = re.sub(r"\btake\s+(\S+?)\s*(%|percent|per cent)\s+off\s+(that|it|this)\b",
               r"\3 minus \1\2", e, flags=re.IGNORECASE)  # fmt: skip
    if re.search(r"\b(?:total|altogether|in all|all in|all up|comes? to|with)\b", e, re.I):
        # "with a 15% tip on $80 what is the total": the amount and the tip on it
        e = re.sub(r"\b(\S+?)\s*(%|percent|per cent)\s+(?:tip|tax|sales tax|service charge|"
                   r"service|vat|gst|hst|pst)\s+(?:on|of|for)\s+(?:an?\s+|the\s+)?"
                   r"(?:bill of\s+|check of\s+)?([$£€]?[\d.,]+)", r"\3 plus \1\2", e,
                   flags=re.IGNORECASE)  # fmt: skip
    e = re.sub(r"\b(\S+?)\s*(%|percent|per cent)\s+(?:tip|tax|sales tax|discount|service charge|"
               r"service|vat|gst|hst|pst|commission|interest|deposit)\s+(?:on|of|for|from)\s+"
               r"(?:an?\s+|the\s+)?", r"\1\2 of ", e, flags=re.IGNORECASE)  # fmt: skip
    # a sum shared out: "share 18,000 among eight", "if two of us share twenty two sweets"
    e = re.sub(r"\bshare\s+(\S+)(?:\s+[a-z]+)?\s+(?:among|amongst|between)\s+(\S+)",
               r"\1 divided by \2", e, flags=re.IGNORECASE)  # fmt: skip
    e = re.sub(r"\b(\S+)\s+of\s+us\s+share\s+(\S+)", r"\2 divided by \1", e,
               flags=re.IGNORECASE)  # fmt: skip
    # so much a month for so many months: "8500 per month, total for 6 months"
    return re.sub(r"\b(\S+)\s+(?:[a-z]+\s+)?(?:per|every|a|each)\s+(day|week|month|year)\b.*?"
                  r"\b(?:for|in|over)\s+(\S+)\s+\2s?\b", r"\1 times \3", e,
                  flags=re.IGNORECASE)  # fmt: skip


def percentage(expression: str) -> str:
    """"41 out of 50, what's that as a percentage" → "41 divided by 50 times 100"."""
    return re.sub(r"\b(\S+) out of (\S+?)\b(?:,? (?:what's|what is|whats) (?:that|it))? "
                  r"(?:as a|in|as) (?:percentage|percent|per cent)\b",
                  r"\1 divided by \2 times 100", expression, flags=re.IGNORECASE)  # fmt: skip


def added(expression: str) -> str:
    """ "A and B added (together)", "A and B put together", "what do A, B and C add up to", "A
    and B come to" → "add A and B (and C)";
    "how many times does A go into B" → "B divided by A"."""
    expression = percentage(priced(go_into(expression)))
    expression = re.sub(r"^(?:what (?:do|does|would|will) )?(.+? and .+?) (?:adds? up to|"
                        r"comes? to|added up|adds? up)\W*$", r"add \1", expression.strip(),
                        flags=re.IGNORECASE)  # fmt: skip
    return re.sub(r"^(.+?) and (.+?) (?:added|put together|combined|all together|together)"
                  r"( together| up)?( make| makes)?\W*$",
                  r"add \1 and \2", expression, flags=re.IGNORECASE)  # fmt: skip


class Calculator:
    """Evaluates expressions and keeps the last result as "that" (one per conversation)."""

    def __init__(self) -> None:
        self.last: Fraction | None = None
        self.asked = ""  # the sum that gave ``last``, said ("thirty percent of three hundred")

    def readable(self, expression: str) -> bool:
        """Whether the whole of ``expression`` parses (nothing is evaluated or kept)."""
        try:
            _Parser(_tokens(words_of(added(expression))), self.last).parse()
            return True
        except (CalcError, TooLarge, RecursionError):
            return False

    def operates(self, expression: str) -> bool:
        """Whether ``expression`` says an operation ("4 from" says none: a number and a word)."""
        try:
            return any(k == "op" for k, _ in _tokens(words_of(added(expression))))
        except (CalcError, TooLarge):
            return False

    def calculate(self, expression: str) -> Calculation:
        if not isinstance(expression, str) or not expression.strip():
            return Calculation("there is no calculation to do", ok=False)
        if len(expression) > 300:
            return Calculation("that calculation is too long for me", ok=False)
        expression = added(expression)
        try:
            tree = _Parser(_tokens(words_of(expression)), self.last).parse()
            canon = tree.say()
        except CalcError as e:
            return Calculation(f"sorry, {e}", ok=False)
        except (TooLarge, RecursionError):
            return Calculation("that number is too large to say", ok=False)
        # "due to the power of eight" (Whisper's "two"): only "eight" was heard. ("that" alone
        # says the last result again.)
        if isinstance(tree, Num) and not re.search(r"\b(that|it)\b", expression.lower()):
            return Calculation(f"sorry, I only heard the number {canon}, not a calculation",
                               ok=False)  # fmt: skip
        try:
            value, exact = evaluate(tree)
            words = number_words(value)
        except DivisionByZero:
            return Calculation("you can't divide by zero", ok=False)
        except TooLarge:
            return Calculation(f"{canon} is too large a number to say", ok=False)
        except CalcError as e:
            return Calculation(f"sorry, {e}", ok=False)
        if not exact and not words.startswith("about"):
            words = "about " + words
        self.last, self.asked = value, canon
        return Calculation(f"{canon} is {words}", value)

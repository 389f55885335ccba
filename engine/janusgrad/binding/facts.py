"""Typed facts about bad arguments: the engine derives each condition once; a dialect words
it through a table ``{FactType: lambda fact: Exception}`` and raises the first fact of a
check that its table has words for (a framework that does not check a condition leaves it
out of its table)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class GroupsNotPositive:
    """A convolution's ``groups`` is zero or negative."""

    groups: int


@dataclass(frozen=True)
class WeightNotDivisible:
    """The weight's first dimension is not divisible by ``groups``."""

    groups: int
    weight_shape: tuple[int, ...]


@dataclass(frozen=True)
class ConvChannels:
    """The input has ``got`` channels where the weight and groups need ``expected``."""

    groups: int
    input_shape: tuple[int, ...]
    weight_shape: tuple[int, ...]
    expected: int
    got: int
    transposed: bool = False


def conv_facts(input_shape: Sequence[int], weight_shape: Sequence[int], groups: int,
               channels: int, transposed: bool = False) -> list:
    """What is wrong with a convolution's groups and channels (``channels``: the input's,
    wherever its layout keeps them), in the order torch checks them: groups, the weight's
    divisibility, the channels."""
    xs, ws = tuple(input_shape), tuple(weight_shape)
    facts: list = []
    if groups <= 0:
        facts.append(GroupsNotPositive(groups))
    expected = ws[0] if transposed else ws[1] * groups
    divisible = [] if groups <= 0 or ws[0] % groups == 0 else [WeightNotDivisible(groups, ws)]
    wrong = [] if channels == expected else [ConvChannels(groups, xs, ws, expected, channels,
                                                 transposed)]
    return facts + divisible + wrong


def first(facts: Sequence, words: dict[type, Callable[[object], Exception]]) -> None:
    """Raise the dialect's exception for the first of ``facts`` it has words for."""
    for fact in facts:
        if type(fact) in words:
            raise words[type(fact)](fact)

"""The charts' geometry, computed here so that the template only places
marks: horizontal bars (one small SVG per row, beside an HTML label that wraps
at any width) and a line chart of the baseline's history with its trend."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

BAR_WIDTH = 100.0  # the viewBox width of one bar row


@dataclass(frozen=True)
class Segment:
    series: str  # a CSS class: which colour
    value: int
    x: float
    width: float


@dataclass(frozen=True)
class Bar:
    label: str
    total: int
    segments: list[Segment]
    detail: str = ""


def bars(rows: Sequence[tuple[str, Sequence[tuple[str, int]], str]]) -> list[Bar]:
    """One bar per (label, [(series, value)...], detail), on a common scale; a
    segment of zero draws no mark."""
    top = max((sum(value for _, value in parts) for _, parts, _ in rows), default=0) or 1
    drawn = []
    for label, parts, detail in rows:
        x = 0.0
        segments = []
        for series, value in parts:
            width = BAR_WIDTH * value / top
            if value > 0:
                segments.append(Segment(series, value, round(x, 3), round(max(width, 0.4), 3)))
            x += width
        drawn.append(Bar(label, sum(value for _, value in parts), segments, detail))
    return drawn


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    value: int
    label: str


@dataclass(frozen=True)
class Series:
    name: str
    css: str
    points: list[Point]
    main: bool = False

    @property
    def path(self) -> str:
        return " ".join(f"{'M' if i == 0 else 'L'}{p.x:.1f},{p.y:.1f}" for i, p in enumerate(self.points))


@dataclass(frozen=True)
class Tick:
    position: float
    text: str


@dataclass
class LineChart:
    width: int
    height: int
    left: int
    top: int
    right: int
    bottom: int
    series: list[Series] = field(default_factory=list)
    y_ticks: list[Tick] = field(default_factory=list)
    x_ticks: list[Tick] = field(default_factory=list)
    trend: tuple[float, float, float, float] | None = None  # x1, y1, x2, y2


def line_chart(labels: Sequence[str], series: Sequence[tuple[str, Sequence[int]]], width: int = 760, height: int = 300) -> LineChart:
    """Lines over evenly spaced versions; the first series is the total, with a
    least-squares trend line over it."""
    chart = LineChart(width, height, left=84, top=16, right=width - 16, bottom=height - 44)
    count = len(labels)
    top_value = max((max(values, default=0) for _, values in series), default=0)
    ceiling = _nice_ceiling(top_value)
    span_x = chart.right - chart.left
    span_y = chart.bottom - chart.top

    def x_of(index: int) -> float:
        return chart.left + (span_x * index / (count - 1) if count > 1 else span_x / 2)

    def y_of(value: float) -> float:
        return chart.bottom - span_y * value / ceiling

    for number, (name, values) in enumerate(series):
        points = [Point(round(x_of(i), 1), round(y_of(v), 1), v, labels[i]) for i, v in enumerate(values)]
        chart.series.append(Series(name, f"s{number % 8}", points, main=number == 0))
    chart.y_ticks = [Tick(round(y_of(ceiling * i / 4), 1), f"{round(ceiling * i / 4):,}") for i in range(5)]
    shown = _x_ticks(count)
    chart.x_ticks = [Tick(round(x_of(i), 1), labels[i].split(" ")[0]) for i in shown]
    if count >= 2 and series:
        slope, intercept = _fit(series[0][1])
        chart.trend = (
            round(x_of(0), 1), round(y_of(max(0.0, intercept)), 1),
            round(x_of(count - 1), 1), round(y_of(max(0.0, intercept + slope * (count - 1))), 1),
        )
    return chart


def _x_ticks(count: int, most: int = 6) -> list[int]:
    """Up to ``most`` evenly spaced indices, the first and the last among them."""
    if count <= 0:
        return []
    step = max(1, math.ceil((count - 1) / (most - 1)))
    shown = list(range(0, count, step))
    if shown[-1] != count - 1:
        if count - 1 - shown[-1] < step and len(shown) > 1:  # too close to the last: the last replaces it
            shown[-1] = count - 1
        else:
            shown.append(count - 1)
    return shown


def _fit(values: Sequence[int]) -> tuple[float, float]:
    """Slope and intercept of the least-squares line through (index, value)."""
    n = len(values)
    mean_x, mean_y = (n - 1) / 2, sum(values) / n
    spread = sum((i - mean_x) ** 2 for i in range(n))
    slope = sum((i - mean_x) * (v - mean_y) for i, v in enumerate(values)) / spread if spread else 0.0
    return slope, mean_y - slope * mean_x


def _nice_ceiling(value: int) -> float:
    """The smallest of 1, 2, 2.5, 5 times a power of ten that is at least ``value`` (4 ticks divide it evenly)."""
    if value <= 4:
        return 4.0
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 4, 5, 8, 10):
        if step * power >= value:
            return float(step * power)
    return float(10 * power)

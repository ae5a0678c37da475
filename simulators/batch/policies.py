"""Which policy and queue order a replay runs: a built-in name or a reference to your own.

Built-in names stand for references to our own modules, so the engine loads a policy
the same way whoever wrote it (the interface is described in ``docs/policies.md``):

- a *policy* is a class; ``Policy(order)`` makes one for a run, and the engine calls
  its ``schedule(machine, t, submitted, ended)`` after events (and its
  ``planned_start(machine, job, t, sequence)`` when a start it planned comes due);
- a *queue order* is a function ``order(machine, t) -> list of waiting jobs``.

Anything else may be named as ``path/to/file.py:Name`` or ``package.module:Name``.
"""

from __future__ import annotations

from schedlab.errors import SchedlabError
from schedlab.references import Reference, parse_reference

BUILT_IN_POLICIES = {
    "fcfs": "schedlab.simulators.batch.fcfs:FirstComeFirstServed",
    "easy": "schedlab.simulators.batch.easy:EasyBackfilling",
    "conservative": "schedlab.simulators.batch.conservative:ConservativeBackfilling",
}

BUILT_IN_ORDERS = {
    "fcfs": "schedlab.simulators.batch.order:fcfs",
    "wfp": "schedlab.simulators.batch.order:wfp",
    "sjf": "schedlab.simulators.batch.order:sjf",
}


def _reference(value: str, built_in: dict[str, str], what: str) -> Reference:
    text = str(value)
    if text in built_in:
        return parse_reference(built_in[text], what)
    if ":" not in text:
        raise SchedlabError(
            f"unknown {what} {text!r}: use one of {', '.join(built_in)} or your own as "
            "path/to/file.py:Name or package.module:Name (see docs/policies.md)"
        )
    return parse_reference(text, what)


def policy_reference(value: str) -> Reference:
    return _reference(value, BUILT_IN_POLICIES, "policy")


def order_reference(value: str) -> Reference:
    return _reference(value, BUILT_IN_ORDERS, "queue order")


def canonical_name(value: str, built_in: dict[str, str], what: str) -> str:
    """A built-in name as it is, a reference with its file made absolute: one text per choice."""
    return str(value) if str(value) in built_in else str(_reference(value, built_in, what))


def policy_label(name: str) -> str:
    """How tables and legends name a policy: a built-in name as it is, a file reference as its
    file and class (``my_policy.py:ShortestFirst``; one process cannot load two files of one
    name, so it is unique), a module reference as written.  Provenance keeps the full name."""
    if name in BUILT_IN_POLICIES:
        return name
    reference = policy_reference(name)
    return f"{reference.file.name}:{reference.name}" if reference.file else str(reference)


def load_policy(value: str) -> type:
    """The policy class ``value`` names, checked to have the interface the engine calls."""
    reference = policy_reference(value)
    policy = reference.load("policy")
    if not isinstance(policy, type) or not callable(getattr(policy, "schedule", None)):
        raise SchedlabError(
            f"policy {reference}: not a policy (a class with a schedule(machine, t, submitted, ended) method)"
        )
    return policy


def load_order(value: str):
    """The queue-order function ``value`` names."""
    reference = order_reference(value)
    order = reference.load("queue order")
    if isinstance(order, type) or not callable(order):
        raise SchedlabError(f"queue order {reference}: not a queue order (a function order(machine, t) -> jobs)")
    return order

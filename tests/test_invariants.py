import numpy as np
import pytest

from schedlab.simulators.core.invariants import InvariantError, check_batch_schedule


def schedule(**changes):
    base = dict(
        machine="m",
        capacity=10,
        job_id=np.array([1, 2]),
        submit=np.array([0.0, 0.0]),
        start=np.array([0.0, 5.0]),
        end=np.array([5.0, 10.0]),
        actual=np.array([5.0, 5.0]),
        procs=np.array([10, 10]),
        promised=np.array([np.inf, np.inf]),
    )
    base.update({k: np.asarray(v) for k, v in changes.items()})
    return base


def test_a_valid_schedule_passes():
    check_batch_schedule(**schedule())  # back to back at t=5: ends free processors first


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"start": [0.0, 4.0], "end": [5.0, 9.0]}, "processors in use"),
        ({"submit": [0.0, 6.0]}, "before submission"),
        ({"end": [5.0, 11.0]}, "end != start"),
        ({"promised": [np.inf, 4.0]}, "after its reservation"),
        ({"start": [0.0, np.nan], "end": [5.0, np.nan]}, "never started"),
    ],
)
def test_each_broken_invariant_is_reported(changes, message):
    with pytest.raises(InvariantError, match=message):
        check_batch_schedule(**schedule(**changes))

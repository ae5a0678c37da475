import numpy as np
import pytest

from schedlab.simulators.core.profile import AvailabilityProfile, OverCommitError


def test_booking_and_release_restore_the_profile():
    profile = AvailabilityProfile(10)
    profile.book(0, 100, 6)
    profile.book(50, 150, 4)
    assert profile.free_at(-1) == 10
    assert profile.free_at(0) == 4
    assert profile.free_at(50) == 0
    assert profile.free_at(100) == 6
    assert profile.free_at(150) == 10
    profile.release(50, 150, 4)
    profile.release(0, 100, 6)
    profile.forget_before(0)
    times, free = profile.steps()
    assert free.tolist() == [10]


def test_over_commit_fails_loudly_and_leaves_the_profile_unchanged():
    profile = AvailabilityProfile(10)
    profile.book(0, 100, 8)
    with pytest.raises(OverCommitError):
        profile.book(50, 60, 3)
    assert profile.min_free(0, 100) == 2
    with pytest.raises(OverCommitError):
        profile.release(0, 200, 1)


def test_min_free_covers_half_open_interval():
    profile = AvailabilityProfile(10)
    profile.book(10, 20, 10)
    assert profile.min_free(0, 10) == 10
    assert profile.min_free(0, 10.5) == 0
    assert profile.min_free(20, 30) == 10


def test_earliest_start_uses_holes_before_later_bookings():
    profile = AvailabilityProfile(10)
    profile.book(0, 10, 8)  # running
    profile.book(30, 60, 8)  # a reservation later on
    assert profile.earliest_start(0, 20, 5) == 10  # the hole [10, 30) is long enough
    assert profile.earliest_start(0, 25, 5) == 60  # too long for the hole
    assert profile.earliest_start(0, 5, 2) == 0
    with pytest.raises(OverCommitError):
        profile.earliest_start(0, 1, 11)


def test_fits_beside_accounts_for_the_held_interval():
    profile = AvailabilityProfile(10)
    profile.book(0, 100, 4)
    # 6 free now; hold 5 from t=50 on: a 3-wide job may run only until 50.
    assert profile.fits_beside(0, 50, 3, 50, 100, 5)
    assert not profile.fits_beside(0, 51, 3, 50, 100, 5)
    assert profile.fits_beside(0, 500, 1, 50, 100, 5)


def test_profile_grows_past_its_initial_buffer():
    profile = AvailabilityProfile(1000)
    for i in range(500):
        profile.book(i, i + 1000, 1)
    assert profile.free_at(499) == 500
    times, _ = profile.steps()
    assert np.all(np.diff(times) > 0)

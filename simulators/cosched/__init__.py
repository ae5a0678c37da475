"""Coscheduling of paired jobs on two coupled machines (spec 000; Argonne, Intrepid + Eureka)."""

from schedlab.simulators.cosched.coscheduler import HOLD, SCHEMES, YIELD, CoschedSettings, Deadlock
from schedlab.simulators.cosched.run import CoschedResult, cosimulate

__all__ = ["HOLD", "SCHEMES", "YIELD", "CoschedResult", "CoschedSettings", "Deadlock", "cosimulate"]

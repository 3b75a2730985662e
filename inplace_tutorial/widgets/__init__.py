"""ipt.widgets: interactive tools for the course, built on ``ipt.viz`` and the core.

Each widget keeps its logic in a plain class (StrideView, TrainingStep, run_experiment)
that tests drive without a browser; the ipywidgets classes only wire and draw.
"""
from __future__ import annotations

from .hazard_lab import HazardLab, HazardResult, run_experiment
from .progress import Progress, in_jupyter_kernel
from .stride_explorer import StrideExplorer, StrideView
from .training_stepper import TrainingStep, TrainingStepper

__all__ = ["HazardLab", "HazardResult", "Progress", "StrideExplorer", "StrideView",
           "TrainingStep", "TrainingStepper", "in_jupyter_kernel", "run_experiment"]

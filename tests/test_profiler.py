"""profiler.profile_step: phases, per-phase peaks, and the roles of storages at the peak."""
import inplace_tutorial as ipt
from inplace_tutorial import models, nn, optim, profiler
from inplace_tutorial.nn import functional as F


def _setup(set_to_none=True, inplace=True):
    ipt.manual_seed(0)
    model = models.digits_cnn(channels=(4, 8), inplace=inplace)
    opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    batch = (ipt.rand(16, 1, 8, 8), ipt.tensor([i % 10 for i in range(16)]))
    profiler.profile_step(model, batch, F.cross_entropy, opt, set_to_none)  # creates state
    return model, opt, batch


def test_phases_peaks_and_categories():
    model, opt, batch = _setup()
    r = profiler.profile_step(model, batch, F.cross_entropy, opt)
    assert r.trace.phases() == ["forward", "backward", "update", "zero_grad"]
    assert r.peak == max(r.phase_peaks.values())
    assert r.peak_phase in r.phase_peaks
    cats = r.by_category()
    n_params = sum(p.numel() * 4 for p in model.parameters())
    n_buffers = sum(b.numel() * b.element_size() for b in model.buffers())
    assert cats["parameter"] == n_params + n_buffers
    assert cats["optimizer state"] == n_params  # one momentum buffer per parameter
    assert cats["saved tensor"] > 0 and set(cats) == set(profiler.CATEGORIES)
    assert all(s.category in profiler.CATEGORIES for s in r.alive_at_peak)
    text = r.summary()
    for word in ("forward", "backward", "saved tensor", "conv2d"):
        assert word in text
    assert all(p.grad is None for p in model.parameters())  # zero_grad(set_to_none=True)


def test_saved_tensors_are_what_the_graph_saves():
    lin = nn.Linear(8, 4)
    x = ipt.randn(5, 8)
    y = lin(x).sigmoid().sum()
    saved = profiler.saved_storages(y.grad_fn)
    # addmm saves its input x (for the weight grad); sigmoid saves its output
    assert x.untyped_storage().label in saved
    assert sum(saved.values()) == 5 * 8 * 4 + 5 * 4 * 4


def test_zero_filled_grads_stay_alive_and_are_counted_as_grads():
    model, opt, batch = _setup(set_to_none=False)
    r = profiler.profile_step(model, batch, F.cross_entropy, opt, zero_grad_set_to_none=False)
    n_params = sum(p.numel() * 4 for p in model.parameters())
    assert r.by_category()["grad"] == n_params
    assert all(p.grad is not None for p in model.parameters())

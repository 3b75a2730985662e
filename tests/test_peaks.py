"""ipt.peaks: the measured inference-block variants of notebook 03 (no torch needed)."""
from inplace_tutorial import peaks


def test_block_peaks_in_activations():
    act = peaks.activation_bytes()
    got = peaks.block_peaks()
    assert list(got) == list(peaks.VARIANTS)
    # the conv alone holds two activations; relu_ never lowers this block's peak
    assert got["conv"] == got["conv -> relu"] == got["conv -> relu_"] == 2 * act
    assert got["conv -> bn -> relu"] == got["conv -> bn -> relu_"] == 2 * act + 512
    assert got["conv -> bn -> relu_ -> pool -> relu_"] == got["conv -> bn -> relu -> pool -> relu"]


def test_relu_inplace_halves_an_expanding_layers_peak():
    got = peaks.expanding_peaks(batch=64, features=8, width=4096)
    assert got == {"linear -> relu": 2 * 64 * 4096 * 4, "linear -> relu_": 64 * 4096 * 4}


def test_training_keeps_the_same_bytes_with_relu_inplace():
    got = peaks.training_saved_bytes()
    two_activations = 2 * peaks.activation_bytes()
    assert got["conv -> bn -> relu"] == got["conv -> bn -> relu_"] == two_activations + 512

"""data: the digits loader, the seeded split and the DataLoader's batching and shuffling."""
import numpy as np

import inplace_tutorial as ipt
from inplace_tutorial.data import DataLoader, TensorDataset, load_digits, train_test_split


def test_load_digits_shapes_dtypes_and_scale():
    x, y = load_digits()
    assert x.shape == (1797, 1, 8, 8) and x.dtype is ipt.float32
    assert y.shape == (1797,) and y.dtype is ipt.int64
    assert x.numpy().min() == 0.0 and x.numpy().max() == 1.0
    assert sorted(set(y.tolist())) == list(range(10))


def test_split_is_seeded_disjoint_and_complete():
    x, y = load_digits()
    xtr, xte, ytr, yte = train_test_split(x, y, test_size=0.2, seed=0)
    assert xte.shape[0] == 359 and xtr.shape[0] == 1797 - 359
    again = train_test_split(x, y, test_size=0.2, seed=0)
    np.testing.assert_array_equal(again[3].numpy(), yte.numpy())
    other = train_test_split(x, y, test_size=0.2, seed=1)
    assert not np.array_equal(other[3].numpy(), yte.numpy())
    rows = {r.tobytes() for r in x.numpy().reshape(1797, -1)}
    split_rows = {r.tobytes() for r in np.concatenate([xtr.numpy(), xte.numpy()]).reshape(
        1797, -1)}
    assert rows == split_rows


def test_dataloader_batches_and_deterministic_shuffle():
    x = ipt.arange(10).float().reshape(10, 1)
    y = ipt.arange(10)
    plain = [yb.tolist() for _, yb in DataLoader(TensorDataset(x, y), batch_size=4)]
    assert plain == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    a = DataLoader(TensorDataset(x, y), batch_size=4, shuffle=True, seed=7)
    b = DataLoader(TensorDataset(x, y), batch_size=4, shuffle=True, seed=7)
    ea, eb = [[t.tolist() for _, t in a] for _ in range(2)], [[t.tolist() for _, t in b]
                                                                for _ in range(2)]
    assert ea == eb and ea[0] != ea[1]  # same per seed, new order each epoch
    assert sorted(sum(ea[0], [])) == list(range(10))
    for xb, yb in a:
        np.testing.assert_array_equal(xb.numpy()[:, 0], yb.numpy())
    assert len(DataLoader(TensorDataset(x, y), batch_size=4, drop_last=True)) == 2

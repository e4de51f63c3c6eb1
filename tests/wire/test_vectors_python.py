"""Every wire vector through the Python models: valid ones re-emit exactly, invalid ones raise WireError."""

import pytest
import toolnexus_wire as wire

import toolnexus
from tests.vectors import path_matches, vectors

VECTORS = vectors()


@pytest.mark.parametrize("vector", [v for v in VECTORS if v.valid], ids=lambda v: v.id)
@pytest.mark.parametrize("module", [toolnexus, wire], ids=["runtime", "wire"])
def test_valid_vector_round_trips_byte_for_byte(vector, module):
    model = getattr(module, vector.type_name)
    parsed = model.from_json(vector.raw)
    assert parsed.to_json() == vector.expected
    assert model.from_json(parsed.to_json()) == parsed


@pytest.mark.parametrize("vector", [v for v in VECTORS if not v.valid], ids=lambda v: v.id)
def test_invalid_vector_raises_wire_error_with_its_path(vector):
    model = getattr(toolnexus, vector.type_name)
    with pytest.raises(toolnexus.WireError) as info:
        model.from_json(vector.raw)
    assert any(path_matches(path, vector.error_path) for path, _ in info.value.errors), (
        f"{vector.id}: expected {vector.error_path}, got {info.value.errors}"
    )

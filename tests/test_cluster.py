"""--cluster: game batches on a Dask distributed cluster (two workers on 127.0.0.1) give byte for
byte what a local run gives with the same seed, for `simulate` and `generate map`."""
import distributed            # the test extras install sheetgen[cluster]: no skipping here
import pytest
from click.testing import CliRunner

from sheetgen.cli import main


@pytest.fixture(scope="module")
def cluster():
    # threads, not processes: two worker processes would each import sheetgen on a loaded machine;
    # the batches still travel through the scheduler as on a real cluster (pickled tasks and results)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as lc:
        yield lc.scheduler_address


def test_simulate_on_the_cluster_is_the_local_run(cluster, tmp_path):
    # a map file (it travels as its text) and a built-in (every worker has it)
    assert CliRunner().invoke(main, ["new", "map", str(tmp_path / "m"), "--size", "7x7"]).exit_code == 0
    for ref in (str(tmp_path / "m.yaml"), "ancient-story"):
        args = ["simulate", ref, "--games", "300", "--seed", "4", "--format", "json"]
        local = CliRunner().invoke(main, args)
        remote = CliRunner().invoke(main, [*args, "--cluster", cluster])
        assert local.exit_code == remote.exit_code == 0, remote.output
        assert remote.stdout == local.stdout
        assert "batches" in remote.stderr            # the progress bar, beside the report


def test_generate_on_the_cluster_is_the_local_map(cluster, tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    args = ["generate", "map", "--size", "7x7", "--win-rate", "0.15", "--tolerance", "0.1", "--budget", "20000",
            "--seed", "3"]
    local = CliRunner().invoke(main, [*args, "-o", str(tmp_path / "a" / "m.yaml")])
    remote = CliRunner().invoke(main, [*args, "--cluster", cluster, "-o", str(tmp_path / "b" / "m.yaml")])
    assert local.exit_code == remote.exit_code == 0, remote.output
    assert (tmp_path / "a" / "m.yaml").read_bytes() == (tmp_path / "b" / "m.yaml").read_bytes()


def test_no_scheduler_at_the_address_is_a_clean_error():
    result = CliRunner().invoke(main, ["simulate", "ancient-story", "--games", "10",
                                       "--cluster", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2, result.output
    assert "no Dask scheduler answers" in result.output and "Traceback" not in result.output

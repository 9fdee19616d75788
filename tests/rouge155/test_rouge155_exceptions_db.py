"""``-m`` stems with the entries of the script's own ``WordNet-2.0.exc.db``.

``buildExeptionDB.pl`` fills the database from the ``.exc`` files in the
order ``readdir`` lists them, a later entry replacing an earlier one, so a
few words (``best``, ``better``, ``testes``) stem by the order it was built
in.  Each database here is built by the release's own script, in a chosen
order, and the whole report of ``ROUGE-1.5.5.pl -e DIR -m`` is compared with
kurenai's on the same directory.  The database reader is held to Perl's
``DB_File`` on generated databases of both byte orders.
"""

from __future__ import annotations

import itertools
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import perl_rouge
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from perl_rouge import perl  # noqa: F401  (the fixture)
from rouge155_corpus import Record, write_setup

from kurenai.rouge155 import _data
from kurenai.rouge155._berkeley import BerkeleyError, read_hash
from kurenai.rouge155.cli import main

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("perl")]

NAME_ORDER = ("adj.exc", "adv.exc", "noun.exc", "verb.exc")
ADJ_LAST = ("noun.exc", "adv.exc", "verb.exc", "adj.exc")  # a readdir order seen on ext4
REPRODUCER: list[Record] = [(["good good testis"], {"peer": "best better testes"})]


def exc_dir() -> Path:
    assert perl_rouge.perl_cmd is not None
    return Path(perl_rouge.perl_cmd.ROUGE_WORDNET_DIR)


def build_data(root: Path, order: Sequence[str] | None) -> Path:
    """A data directory whose database ``buildExeptionDB.pl`` built from the
    ``.exc`` files in ``order`` (one file holding them in that order), or,
    for None, from the files themselves in the order readdir gives here."""
    assert perl_rouge.perl_cmd is not None
    root.mkdir(parents=True)
    shutil.copy(perl_rouge.perl_cmd.ROUGE_SMART_COMMON_WORDS, root / _data.STOPWORDS_FILE)
    source = root / "source"
    source.mkdir()
    if order is None:
        for path in exc_dir().glob("*.exc"):
            shutil.copy(path, source / path.name)
    else:
        joined = b"".join((exc_dir() / name).read_bytes() for name in order)
        (source / "joined.exc").write_bytes(joined)
    database = root / _data.EXCEPTIONS_DB
    subprocess.run(  # the script opens the files it lists relative to the working directory
        ["perl", perl_rouge.perl_cmd.ROUGE_BUILD_DB_SCRIPT, ".", "exc", str(database)],
        cwd=source,
        check=True,
        capture_output=True,
    )
    shutil.rmtree(source)
    return root


def reports(
    capsys: pytest.CaptureFixture[str], data: Path, records: Sequence[Record], tmp: Path
) -> tuple[str, str]:
    """(Perl's report, kurenai's) of ``-e data -m -n 1 -x -a`` on ``records``."""
    config = write_setup(tmp, records)[0]
    args = ["-e", str(data), "-m", "-n", "1", "-x", "-a", "-d", str(config)]
    script = perl_rouge.run_script(args)
    assert script.returncode == 0, script.stderr
    code = main(args)
    out, err = capsys.readouterr()
    assert code == 0, err
    return script.stdout.decode(), out


def recall(report: str) -> str:
    return next(line for line in report.splitlines() if "Average_R" in line).split()[3]


@pytest.mark.parametrize("order", [NAME_ORDER, ADJ_LAST, None], ids=["name", "adj-last", "readdir"])
def test_the_reproducer_stems_as_the_scripts_database_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], order: Sequence[str] | None
) -> None:
    data = build_data(tmp_path / "data", order)
    perl_report, ours = reports(capsys, data, REPRODUCER, tmp_path / "run")
    assert ours == perl_report
    # best/better -> good only where adj.exc was read last.
    adj_last = read_hash(data / _data.EXCEPTIONS_DB)[b"better"] == b"good"
    assert recall(ours) == ("0.66667" if adj_last else "0.00000")


def test_the_harness_catches_a_database_read_in_the_wrong_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Negative control: kurenai on the name-order database against the script
    on the adj-last one differs, so the comparisons above can fail."""
    name = build_data(tmp_path / "name", NAME_ORDER)
    adj_last = build_data(tmp_path / "adj", ADJ_LAST)
    config = write_setup(tmp_path / "run", REPRODUCER)[0]
    script = perl_rouge.run_script(["-e", str(adj_last), "-m", "-n", "1", "-x", "-a", str(config)])
    main(["-e", str(name), "-m", "-n", "1", "-x", "-a", str(config)])
    ours = capsys.readouterr().out
    assert recall(script.stdout.decode()) == "0.66667"
    assert ours != script.stdout.decode() and recall(ours) == "0.00000"


def _conflicts() -> list[str]:
    """The words whose base form depends on the order of the .exc files."""
    seen: dict[str, set[str]] = {}
    for path in exc_dir().glob("*.exc"):
        for line in path.read_text(encoding="latin-1").splitlines():
            fields = line.split()
            if len(fields) > 1 and len(fields[0]) > 3 and fields[0].isalpha():
                seen.setdefault(fields[0], set()).add(fields[1])
    return sorted(word for word, bases in seen.items() if len(bases) > 1)


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_every_build_order_gives_the_scripts_report(
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    data: st.DataObject,
) -> None:
    order = data.draw(st.sampled_from(list(itertools.permutations(NAME_ORDER))))
    conflicts = _conflicts()
    assert {"best", "better", "testes"} <= set(conflicts)
    vocabulary = [*conflicts, "good", "well", "testis", "offers", "involucre", "cats"]
    text = st.lists(st.sampled_from(vocabulary), min_size=1, max_size=6).map(" ".join)
    pairs = st.lists(st.tuples(text, text), min_size=1, max_size=5)
    records = [([model], {"peer": peer}) for peer, model in data.draw(pairs)]
    tmp = tmp_path_factory.mktemp("order")
    root = build_data(tmp / "data", order)
    perl_report, ours = reports(capsys, root, records, tmp / "run")
    assert ours == perl_report


_DUMP = r"""
use DB_File;
my ($file) = @ARGV;
tie my %h, 'DB_File', $file, O_RDONLY, 0, $DB_HASH or die "$file: $!";
binmode STDOUT;
print pack('N', length $_), $_, pack('N', length $h{$_}), $h{$_} for keys %h;
"""

_WRITE = r"""
use DB_File;
my ($file, $lorder) = @ARGV;
binmode STDIN;
my $info = DB_File::HASHINFO->new();
$info->{lorder} = $lorder;
tie my %h, 'DB_File', $file, O_CREAT|O_RDWR, 0640, $info or die "$file: $!";
local $/;
my $in = <STDIN>;
while (length $in) {
    my ($k, $v);
    ($k, $in) = unpack('N/a a*', $in);
    ($v, $in) = unpack('N/a a*', $in);
    $h{$k} = $v;
}
untie %h;
"""


def _long(times: int) -> st.SearchStrategy[bytes]:
    """Items longer than a page: a few bytes, repeated (on overflow pages)."""
    return st.builds(
        bytes.__mul__, st.binary(min_size=1, max_size=8), st.integers(times, 3 * times)
    )


def _unpack(data: bytes) -> dict[bytes, bytes]:
    fields, at = [], 0
    while at < len(data):
        length = int.from_bytes(data[at : at + 4], "big")
        fields.append(data[at + 4 : at + 4 + length])
        at += 4 + length
    return dict(zip(fields[::2], fields[1::2]))


def _pack(entries: dict[bytes, bytes]) -> bytes:
    return b"".join(
        len(k).to_bytes(4, "big") + k + len(v).to_bytes(4, "big") + v for k, v in entries.items()
    )


@settings(max_examples=10, deadline=None)
@given(
    entries=st.dictionaries(
        st.binary(min_size=1, max_size=40) | _long(1000),
        st.binary(max_size=60) | _long(3000),
        max_size=200,
    ),
    lorder=st.sampled_from([1234, 4321]),
)
def test_the_reader_gives_what_perls_db_file_wrote(
    tmp_path_factory: pytest.TempPathFactory, entries: dict[bytes, bytes], lorder: int
) -> None:
    path = tmp_path_factory.mktemp("db") / "h.db"
    subprocess.run(["perl", "-e", _WRITE, str(path), str(lorder)], input=_pack(entries), check=True)
    assert read_hash(path) == entries
    # The harness's own check: Perl reads back what it wrote.
    dumped = subprocess.run(["perl", "-e", _DUMP, str(path)], capture_output=True, check=True)
    assert _unpack(dumped.stdout) == entries


def test_a_database_it_cannot_read_is_an_error_not_a_guess(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = build_data(tmp_path / "data", NAME_ORDER)
    database = data / _data.EXCEPTIONS_DB
    raw = bytearray(database.read_bytes())
    raw[16] = 2  # hash version 2: Berkeley DB 1.85's format
    database.write_bytes(bytes(raw))
    with pytest.raises(BerkeleyError, match="hash version 2"):
        read_hash(database)
    config = write_setup(tmp_path / "run", REPRODUCER)[0]
    code = main(["-e", str(data), "-m", "-n", "1", "-a", str(config)])
    out, err = capsys.readouterr()
    assert (code, out) == (255, "")
    assert f"cannot read the exception database {database}" in err
    assert "name order" in err
    # Without -m the database is not read.
    assert main(["-e", str(data), "-n", "1", "-a", str(config)]) == 0

"""A PEP 517 build backend for folio-client, in the standard library alone.

pip builds this package without downloading anything (no setuptools or wheel needed, which
an offline machine may lack): the wheel holds folio_client.py and its .dist-info (METADATA,
WHEEL, RECORD with SHA-256 hashes); the sdist holds the sources.
"""

import base64
import hashlib
import io
import os
import tarfile
import zipfile

NAME = "folio_client"
DIST = "folio-client"
VERSION = "0.1.0"
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = ["folio_client.py", "folio_build.py", "pyproject.toml", "README.md"]


def _metadata():
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as readme:
        description = readme.read()
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {DIST}\n"
        f"Version: {VERSION}\n"
        "Summary: Python client of the Folio document search server's HTTP API (standard library only).\n"
        "License: MIT\n"
        "Requires-Python: >=3.9\n"
        "Description-Content-Type: text/markdown\n"
        "\n" + description
    )


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    info = f"{NAME}-{VERSION}.dist-info"
    with open(os.path.join(HERE, "folio_client.py"), "rb") as module:
        files = {
            "folio_client.py": module.read(),
            f"{info}/METADATA": _metadata().encode("utf-8"),
            f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: folio_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        }
    record = [_record_line(path, data) for path, data in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode("utf-8")
    name = f"{NAME}-{VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files.items():
            wheel.writestr(path, data)
    return name


def build_sdist(sdist_directory, config_settings=None):
    base = f"{NAME}-{VERSION}"
    name = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as sdist:
        for source in SOURCES:
            sdist.add(os.path.join(HERE, source), arcname=f"{base}/{source}")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata().encode("utf-8")
        info.size = len(data)
        sdist.addfile(info, io.BytesIO(data))
    return name

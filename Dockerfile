# The stand (default target) and the image that runs the e2e suites (target e2e).
#
#     docker build -t tgfake .            # then: docker run -p 18790:18790 tgfake
#     docker build --target e2e -t tgfake-e2e .
#
# Slim Python, a non-root user, exec-form ENTRYPOINT (so tgfake is PID 1 and gets SIGTERM), and a
# health check with Python's urllib (slim images have no curl) on /sim/state, the readiness probe.

FROM python:3.11-slim AS base
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN groupadd --system --gid 999 tgfake \
 && useradd --system --uid 999 --gid tgfake --no-create-home --home-dir /app tgfake
WORKDIR /app
COPY pyproject.toml README.md ./
COPY tgfake ./tgfake
COPY llmstub ./llmstub
RUN pip install .

FROM base AS e2e
RUN pip install ".[test]"
COPY compose.yaml Dockerfile ./
COPY examples ./examples
COPY tests ./tests
USER tgfake
CMD ["python", "-m", "pytest", "-p", "no:cacheprovider", "tests/e2e"]

FROM base AS stand
USER tgfake
EXPOSE 18790
HEALTHCHECK --interval=5s --timeout=3s --retries=6 \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:18790/sim/state', timeout=2)"]
ENTRYPOINT ["tgfake"]
CMD ["--addr", "0.0.0.0:18790"]

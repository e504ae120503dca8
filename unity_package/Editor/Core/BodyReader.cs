// Reads an HTTP request body without holding a thread while its bytes arrive, within a deadline.
// A blocking Read on a pool thread lets a few hundred slow clients (even authorised ones) hold
// every pool thread, and with them the listener's own I/O callbacks: the whole bridge stalls.
// Here each read is asynchronous (Begin/EndRead), and a timer ends the read at the deadline.
// No Unity dependency.
using System;
using System.IO;
using System.Threading;

namespace UnityIndex.Bridge
{
    public enum BodyOutcome
    {
        Complete,
        TooLarge,
        TimedOut,
        Failed,
    }

    public sealed class BodyReader
    {
        private readonly Stream _input;
        private readonly int _maxBytes;
        private readonly Action<BodyOutcome, MemoryStream> _done;
        private readonly MemoryStream _body = new MemoryStream();
        private readonly byte[] _buffer = new byte[8192];
        private Timer _deadline;
        private int _finished;

        private BodyReader(Stream input, int maxBytes, Action<BodyOutcome, MemoryStream> done)
        {
            _input = input;
            _maxBytes = maxBytes;
            _done = done;
        }

        /// <summary>
        /// Starts reading input to its end; calls done exactly once, on a pool or timer thread: with
        /// Complete and the bytes, or TooLarge (more than maxBytes), TimedOut (timeoutMs passed
        /// first) or Failed (the connection broke). Returns at once.
        /// </summary>
        public static void Start(Stream input, int maxBytes, int timeoutMs, Action<BodyOutcome, MemoryStream> done)
        {
            var reader = new BodyReader(input, maxBytes, done);
            reader._deadline = new Timer(reader.OnDeadline, null, timeoutMs, Timeout.Infinite);
            reader.ReadLoop();
        }

        private void ReadLoop()
        {
            // Reads that complete synchronously (bytes already buffered) are consumed here, in a
            // loop; the others in OnRead. Never both: CompletedSynchronously tells them apart.
            while (Volatile.Read(ref _finished) == 0)
            {
                IAsyncResult ar;
                try
                {
                    ar = _input.BeginRead(_buffer, 0, _buffer.Length, OnRead, null);
                }
                catch (Exception)
                {
                    Finish(BodyOutcome.Failed);
                    return;
                }
                if (!ar.CompletedSynchronously || !Consume(ar)) return;
            }
        }

        private void OnRead(IAsyncResult ar)
        {
            if (ar.CompletedSynchronously) return;
            if (Consume(ar)) ReadLoop();
        }

        /// <summary>Takes one read's bytes; true when more should be read.</summary>
        private bool Consume(IAsyncResult ar)
        {
            int n;
            try
            {
                n = _input.EndRead(ar);
            }
            catch (Exception)
            {
                Finish(BodyOutcome.Failed);
                return false;
            }
            if (Volatile.Read(ref _finished) != 0) return false;
            if (n <= 0)
            {
                Finish(BodyOutcome.Complete);
                return false;
            }
            _body.Write(_buffer, 0, n);
            if (_body.Length > _maxBytes)
            {
                Finish(BodyOutcome.TooLarge);
                return false;
            }
            return true;
        }

        private void OnDeadline(object unused)
        {
            Finish(BodyOutcome.TimedOut);
        }

        private void Finish(BodyOutcome outcome)
        {
            if (Interlocked.Exchange(ref _finished, 1) != 0) return;
            Timer t = _deadline;
            if (t != null) t.Dispose();
            _done(outcome, _body);
        }
    }
}

// The queue between the HTTP threads and the thread that may touch the engine (Unity's main
// thread; the test host's pump thread). No Unity dependency.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;

namespace UnityIndex.Bridge
{
    /// <summary>An error answered to the client: HTTP status, machine-readable code, message.</summary>
    public sealed class BridgeError
    {
        public BridgeError(int status, string code, string message)
        {
            Status = status;
            Code = code;
            Message = message;
        }

        public int Status { get; private set; }
        public string Code { get; private set; }
        public string Message { get; private set; }
        /// <summary>Whether the tool had started running (false means it is safe to retry).</summary>
        public bool? Started;
    }

    /// <summary>
    /// A result that a tool completes later, from any thread (for work that spans editor frames,
    /// such as a test run). Return it from a tool; the HTTP request waits for it within its timeout.
    /// </summary>
    public sealed class Deferred
    {
        private readonly object _lock = new object();
        private bool _done;
        private object _result;
        private BridgeError _error;
        private Action _onDone;

        public bool IsDone { get { lock (_lock) return _done; } }

        public void Complete(object result) { Finish(result, null); }

        public void Fail(string code, string message) { Finish(null, new BridgeError(422, code, message) { Started = true }); }

        internal void Fail(BridgeError error) { Finish(null, error); }

        private void Finish(object result, BridgeError error)
        {
            Action cb;
            lock (_lock)
            {
                if (_done) return;
                _done = true;
                _result = result;
                _error = error;
                cb = _onDone;
            }
            if (cb != null) cb();
        }

        internal void OnDone(Action cb)
        {
            bool now;
            lock (_lock)
            {
                now = _done;
                if (!now) _onDone = cb;
            }
            if (now) cb();
        }

        internal object Result { get { lock (_lock) return _result; } }
        internal BridgeError Error { get { lock (_lock) return _error; } }
    }

    public sealed class WorkItem
    {
        internal const int Pending = 0, Running = 1, Done = 2, Abandoned = 3;

        private readonly Func<object> _work;
        private readonly ManualResetEvent _done = new ManualResetEvent(false);
        private readonly object _lock = new object();
        private int _state;
        private object _result;
        private BridgeError _error;
        private Action _onDone;
        internal Deferred PendingDeferred;

        public WorkItem(string label, Func<object> work)
        {
            Label = label;
            _work = work;
        }

        public string Label { get; private set; }
        public object Result { get { lock (_lock) return _result; } }
        public BridgeError Error { get { lock (_lock) return _error; } }
        internal int State { get { lock (_lock) return _state; } }

        /// <summary>Waits for completion; on timeout marks a pending item abandoned (it will never run).</summary>
        public bool Wait(int timeoutMs, out bool started)
        {
            bool finished = _done.WaitOne(timeoutMs);
            lock (_lock)
            {
                if (finished || _state == Done) { started = true; return true; }
                started = _state != Pending;
                if (_state == Pending) _state = Abandoned;
                return false;
            }
        }

        /// <summary>
        /// Calls cb once when the item finishes (at once if it already has), on the finishing
        /// thread: the server waits for a call this way instead of blocking a pool thread on it.
        /// </summary>
        internal void OnDone(Action cb)
        {
            bool now;
            lock (_lock)
            {
                now = _state == Done;
                if (!now) _onDone = cb;
            }
            if (now) cb();
        }

        internal bool TryStart()
        {
            lock (_lock)
            {
                if (_state != Pending) return false;
                _state = Running;
                return true;
            }
        }

        internal void Run()
        {
            object result = null;
            BridgeError error = null;
            try
            {
                result = _work();
            }
            catch (Exception e)
            {
                error = ErrorFor(e);
            }
            var deferred = result as Deferred;
            if (deferred != null)
            {
                PendingDeferred = deferred;
                deferred.OnDone(delegate { Finish(deferred.Result, deferred.Error); });
                return;
            }
            Finish(result, error);
        }

        internal static BridgeError ErrorFor(Exception e)
        {
            var tie = e as System.Reflection.TargetInvocationException;
            if (tie != null && tie.InnerException != null) e = tie.InnerException;
            var te = e as ToolException;
            if (te != null) return new BridgeError(422, te.Code, te.Message) { Started = true };
            // Thrown by the tool itself, so it ran: its own refusal (422), not the 400 of binding.
            var ab = e as ArgumentBindingException;
            if (ab != null) return new BridgeError(422, "bad_arguments", ab.Message) { Started = true };
            return new BridgeError(500, "internal_error", e.GetType().Name + ": " + e.Message) { Started = true };
        }

        internal void Finish(object result, BridgeError error)
        {
            Action cb;
            lock (_lock)
            {
                if (_state == Done) return;
                _state = Done;
                _result = result;
                _error = error;
                cb = _onDone;
                _onDone = null;
            }
            _done.Set();
            if (cb != null) cb();
        }

        /// <summary>Fails the item unless it already finished (used when the server stops).</summary>
        internal void Cancel(string code, string message)
        {
            bool started;
            lock (_lock)
            {
                if (_state == Done) return;
                started = _state == Running;
            }
            Finish(null, new BridgeError(503, code, message) { Started = started });
        }
    }

    /// <summary>A bounded FIFO of work items, drained by Pump() on the engine's thread.</summary>
    public sealed class MainThreadQueue
    {
        private readonly object _lock = new object();
        private readonly LinkedList<WorkItem> _items = new LinkedList<WorkItem>();
        private readonly List<WorkItem> _running = new List<WorkItem>();
        private int _capacity;

        public MainThreadQueue(int capacity)
        {
            _capacity = capacity < 1 ? 1 : capacity;
        }

        public int Capacity
        {
            get { lock (_lock) return _capacity; }
            set { lock (_lock) _capacity = value < 1 ? 1 : value; }
        }

        /// <summary>Raised (on the enqueuing thread) after an item was added: a hook to wake the engine thread.</summary>
        public event Action Enqueued;

        /// <summary>Items waiting to start (abandoned ones excluded).</summary>
        public int PendingCount
        {
            get
            {
                lock (_lock)
                {
                    Prune();
                    return _items.Count;
                }
            }
        }

        private void Prune()
        {
            LinkedListNode<WorkItem> node = _items.First;
            while (node != null)
            {
                LinkedListNode<WorkItem> next = node.Next;
                if (node.Value.State != WorkItem.Pending) _items.Remove(node);
                node = next;
            }
        }

        public bool TryEnqueue(WorkItem item)
        {
            lock (_lock)
            {
                Prune();
                if (_items.Count >= _capacity) return false;
                _items.AddLast(item);
            }
            Action cb = Enqueued;
            if (cb != null)
            {
                try { cb(); } catch (Exception) { }
            }
            return true;
        }

        /// <summary>
        /// Runs queued items on the calling thread until the queue is empty or the time budget is
        /// spent (at least one item runs per call). Returns how many ran.
        /// </summary>
        public int Pump(int budgetMs)
        {
            var sw = Stopwatch.StartNew();
            int ran = 0;
            while (true)
            {
                WorkItem item = null;
                lock (_lock)
                {
                    while (_items.Count > 0)
                    {
                        WorkItem first = _items.First.Value;
                        _items.RemoveFirst();
                        if (first.TryStart()) { item = first; break; }
                    }
                    if (item != null) _running.Add(item);
                }
                if (item == null) break;
                try { item.Run(); }
                finally
                {
                    lock (_lock)
                    {
                        if (item.PendingDeferred == null || item.State == WorkItem.Done) _running.Remove(item);
                    }
                }
                ran++;
                if (sw.ElapsedMilliseconds >= budgetMs) break;
            }
            lock (_lock) _running.RemoveAll(delegate (WorkItem w) { return w.State == WorkItem.Done; });
            return ran;
        }

        /// <summary>Fails every queued or still-running item (the server is stopping).</summary>
        public void CancelAll(string code, string message)
        {
            List<WorkItem> all;
            lock (_lock)
            {
                all = new List<WorkItem>(_items);
                all.AddRange(_running);
                _items.Clear();
                _running.Clear();
            }
            foreach (WorkItem w in all) w.Cancel(code, message);
        }
    }
}

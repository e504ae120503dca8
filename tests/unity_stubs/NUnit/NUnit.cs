// Stubs of NUnit 3 (as bundled by Unity's com.unity.ext.nunit), only what the package's EditMode tests use.
using System;

namespace NUnit.Framework
{
    public delegate void TestDelegate();

    [AttributeUsage(AttributeTargets.Class, AllowMultiple = true, Inherited = true)]
    public class TestFixtureAttribute : Attribute { }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = true)]
    public class TestAttribute : Attribute { }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = true)]
    public class SetUpAttribute : Attribute { }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = true)]
    public class TearDownAttribute : Attribute { }

    public class Assert
    {
        public static void AreEqual(object expected, object actual) { }
        public static void AreEqual(object expected, object actual, string message) { }
        public static void AreNotEqual(object expected, object actual) { }
        public static void IsTrue(bool condition) { }
        public static void IsTrue(bool condition, string message) { }
        public static void IsFalse(bool condition) { }
        public static void IsNull(object anObject) { }
        public static void IsNotNull(object anObject) { }
        public static void Ignore(string message) { }
        public static void Fail(string message) { }
        public static TActual Throws<TActual>(TestDelegate code) where TActual : Exception { throw null; }
    }

    public class CollectionAssert
    {
        public static void AreEqual(System.Collections.IEnumerable expected, System.Collections.IEnumerable actual) { }
    }
}

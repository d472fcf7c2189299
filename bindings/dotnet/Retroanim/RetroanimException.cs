using System;

namespace Retroanim
{
    /// <summary>A failed native call: its status, the library's last-error message
    /// (naming the file, record, byte offset or JSON path where there is one) and the
    /// engine's numeric code (ACE's WeenieError for a refused AC motion, else 0).</summary>
    public class RetroanimException : Exception
    {
        public Status Status { get; private set; }
        public uint Code { get; private set; }

        public RetroanimException(Status status, string message, uint code)
            : base(message.Length > 0 ? message : status.ToString())
        {
            Status = status;
            Code = code;
        }
    }
}
